import { describe, expect, test } from "bun:test";
import { transact } from "../db/tx";
import { teamMembers, teams } from "../teams/teams.table";
import { anyEvent } from "../../test/kit/events";
import { appendEvent } from "./append";
import { startTestDesk } from "../../test/harness";
import { addMember, createKey, createWorkspaceWithOwner } from "../../test/factories";

const desk = await startTestDesk();

describe("GET /v1/events (replay)", () => {
  test("access: none 401, any member, any key scope; another workspace 404", async () => {
    const { workspace, owner } = await createWorkspaceWithOwner(desk);
    const other = await createWorkspaceWithOwner(desk);
    const viewer = await addMember(desk, workspace.id, "viewer");
    expect((await desk.api("GET", "/v1/events")).status).toBe(401);
    expect((await desk.api("GET", "/v1/events", { headers: viewer.headers })).status).toBe(200);
    expect(
      (await desk.api("GET", "/v1/events", { headers: (await createKey(desk, owner, ["kb:read"])).headers })).status,
    ).toBe(200);
    expect(
      (await desk.api("GET", "/v1/events", { headers: { ...viewer.headers, "desk-workspace": other.workspace.id } }))
        .status,
    ).toBe(404);
    for (const q of ["since=-1", "since=abc", "limit=0", "limit=1001", "topic=x"]) {
      expect((await desk.api("GET", `/v1/events?${q}`, { headers: viewer.headers })).status, q).toBe(422);
    }
  });

  test("ascending from since, paged by limit, envelopes as stored", async () => {
    const { workspace, owner } = await createWorkspaceWithOwner(desk);
    await transact(desk.deps.db, async (tx) => {
      for (let i = 0; i < 5; i++)
        await appendEvent(tx, anyEvent("test.thing"), { workspaceId: workspace.id, data: { i } });
    });
    const res = await desk.api("GET", "/v1/events?since=1&limit=3", { headers: owner.headers });
    expect(res.status).toBe(200);
    expect(res.body.data.map((e: { seq: number }) => e.seq)).toEqual([2, 3, 4]);
    expect(res.body.next_cursor).toBe("4");
    expect(res.body.data[0]).toEqual({
      id: expect.any(String),
      seq: 2,
      workspace_id: workspace.id,
      type: "test.thing",
      visibility: "agents",
      topics: [`workspace:${workspace.id}`],
      data: { i: 0 },
      occurred_at: expect.any(String),
    });
    const rest = await desk.api("GET", `/v1/events?since=${res.body.next_cursor}`, { headers: owner.headers });
    expect(rest.body.data.map((e: { seq: number }) => e.seq)).toEqual([5, 6]);
    expect(rest.body.next_cursor).toBeNull();
    const all = await desk.api("GET", "/v1/events", { headers: owner.headers });
    expect(all.body.data[0]).toMatchObject({ seq: 1, type: "workspace.updated" });
  });

  test("events of a private team the caller is not in come back as event.hidden stand-ins with the same seq", async () => {
    const { workspace, owner } = await createWorkspaceWithOwner(desk);
    const insider = await addMember(desk, workspace.id, "agent");
    const outsider = await addMember(desk, workspace.id, "agent");
    const teamId = "01900000-0000-7000-8000-000000000001";
    const now = new Date().toISOString();
    await desk.deps.db
      .insert(teams)
      .values({ id: teamId, workspaceId: workspace.id, name: "VIP", private: true, createdAt: now, updatedAt: now });
    await desk.deps.db.insert(teamMembers).values({ teamId, userId: insider.id });
    const secret = await transact(desk.deps.db, async (tx) => {
      await appendEvent(tx, anyEvent("test.open"), { workspaceId: workspace.id, data: { visible: true } });
      return await appendEvent(tx, anyEvent("ticket.updated"), {
        workspaceId: workspace.id,
        data: { ticket: { subject: "secret" } },
        privateTeamId: teamId,
      });
    });
    const seen = async (headers: Record<string, string>) =>
      (await desk.api("GET", "/v1/events?since=1", { headers })).body.data as Array<Record<string, unknown>>;

    const outsiderView = await seen(outsider.headers);
    expect(outsiderView.map((e) => [e.seq, e.type])).toEqual([
      [2, "test.open"],
      [3, "event.hidden"],
    ]);
    expect(outsiderView[1]).toEqual({
      id: secret.id,
      seq: 3,
      workspace_id: workspace.id,
      type: "event.hidden",
      visibility: "agents",
      topics: [`workspace:${workspace.id}`],
      data: {},
      occurred_at: secret.occurred_at,
    });
    expect(JSON.stringify(outsiderView)).not.toContain("secret");

    for (const viewer of [insider.headers, owner.headers, (await createKey(desk, owner, ["tickets:read"])).headers]) {
      const full = await seen(viewer);
      expect(full[1]).toMatchObject({
        seq: 3,
        type: "ticket.updated",
        data: { ticket: { subject: "secret" } },
        topics: [`team:${workspace.id}:${teamId}`],
      });
    }
  });
});

describe("GET /v1/events filters API keys by scope", () => {
  test("each key sees in full only the events its scopes read; the rest are stand-ins with the same seq", async () => {
    const { workspace, owner } = await createWorkspaceWithOwner(desk);
    const start = (await desk.api("GET", "/v1/events?limit=1000", { headers: owner.headers })).body.data.at(-1)
      .seq as number;
    const ticket = await desk.api("POST", "/v1/tickets", {
      headers: owner.headers,
      body: { subject: "Top secret subject", body_html: "<p>secret body</p>" },
    });
    expect(ticket.status).toBe(201);
    expect(
      (
        await desk.api("POST", "/v1/contacts", {
          headers: owner.headers,
          body: { email: "carol@customer.test", name: "Carol" },
        })
      ).status,
    ).toBe(201);
    expect(
      (await desk.api("POST", "/v1/teams", { headers: owner.headers, body: { name: "Support", member_ids: [] } }))
        .status,
    ).toBe(201);
    const replay = async (scopes: Parameters<typeof createKey>[2]) =>
      (await desk.api("GET", `/v1/events?since=${start}`, { headers: (await createKey(desk, owner, scopes)).headers }))
        .body.data as Array<{ seq: number; type: string; data: unknown }>;
    const full = await replay(["tickets:read", "contacts:read", "settings:read"]);
    const types = full.map((e) => e.type);
    expect(types).toContain("ticket.created");
    expect(types).toContain("message.created");
    expect(types).toContain("contact.created");
    expect(types).toContain("team.created");
    const resourceOf = (type: string) => type.slice(0, type.lastIndexOf("."));
    const expected: Record<string, string[]> = {
      realtime: [],
      "contacts:read": ["contact"],
      "settings:read": ["team"],
      "tickets:read": ["ticket", "message", "activity"],
    };
    for (const [scope, resources] of Object.entries(expected)) {
      const seen = await replay([scope as Parameters<typeof createKey>[2][number]]);
      expect(seen.map((e) => e.seq)).toEqual(full.map((e) => e.seq));
      expect(seen.map((e) => e.type)).toEqual(
        full.map((e) => (resources.includes(resourceOf(e.type)) ? e.type : "event.hidden")),
      );
      if (scope !== "tickets:read") expect(JSON.stringify(seen)).not.toContain("secret");
    }
    // people are limited by their role and teams, not scopes: a viewer replays everything public to members
    const viewer = await addMember(desk, workspace.id, "viewer");
    const asViewer = (await desk.api("GET", `/v1/events?since=${start}`, { headers: viewer.headers })).body
      .data as Array<{ type: string }>;
    expect(asViewer.map((e) => e.type)).toEqual(types);
  });

  test("a key without tickets:read never sees a private team's events; with it, as an admin would", async () => {
    const { workspace, owner } = await createWorkspaceWithOwner(desk);
    const team = await desk.api("POST", "/v1/teams", {
      headers: owner.headers,
      body: { name: "Vault", member_ids: [], private: true },
    });
    const seq = (
      await transact(
        desk.deps.db,
        async (tx) =>
          await appendEvent(tx, anyEvent("ticket.updated"), {
            workspaceId: workspace.id,
            data: { ticket: { subject: "vault" } },
            privateTeamId: team.body.id,
          }),
      )
    ).seq;
    const at = async (scopes: Parameters<typeof createKey>[2]) =>
      (
        (
          await desk.api("GET", `/v1/events?since=${seq - 1}`, {
            headers: (await createKey(desk, owner, scopes)).headers,
          })
        ).body.data as Array<{ type: string }>
      )[0]!.type;
    expect(await at(["settings:read", "contacts:read", "realtime"])).toBe("event.hidden");
    expect(await at(["tickets:read"])).toBe("ticket.updated");
  });
});
