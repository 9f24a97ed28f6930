import { describe, expect, test } from "bun:test";
import { withTx } from "../db/tx";
import { teamMembers, teams } from "../teams/teams.table";
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
    expect((await desk.api("GET", "/v1/events", { headers: createKey(desk, owner, ["kb:read"]).headers })).status).toBe(200);
    expect((await desk.api("GET", "/v1/events", { headers: { ...viewer.headers, "desk-workspace": other.workspace.id } })).status).toBe(404);
    for (const q of ["since=-1", "since=abc", "limit=0", "limit=1001", "topic=x"]) {
      expect((await desk.api("GET", `/v1/events?${q}`, { headers: viewer.headers })).status, q).toBe(422);
    }
  });

  test("ascending from since, paged by limit, envelopes as stored", async () => {
    const { workspace, owner } = await createWorkspaceWithOwner(desk);
    withTx(desk.deps.db, (tx) => {
      for (let i = 0; i < 5; i++) appendEvent(tx, { workspaceId: workspace.id, type: "test.thing", data: { i } });
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
    desk.deps.db.insert(teams).values({ id: teamId, workspaceId: workspace.id, name: "VIP", private: true, createdAt: now, updatedAt: now }).run();
    desk.deps.db.insert(teamMembers).values({ teamId, userId: insider.id }).run();
    const secret = withTx(desk.deps.db, (tx) => {
      appendEvent(tx, { workspaceId: workspace.id, type: "test.open", data: { visible: true } });
      return appendEvent(tx, { workspaceId: workspace.id, type: "ticket.updated", data: { ticket: { subject: "secret" } }, privateTeamId: teamId });
    });
    const seen = async (headers: Record<string, string>) => (await desk.api("GET", "/v1/events?since=1", { headers })).body.data as Array<Record<string, unknown>>;

    const outsiderView = await seen(outsider.headers);
    expect(outsiderView.map((e) => [e.seq, e.type])).toEqual([
      [2, "test.open"],
      [3, "event.hidden"],
    ]);
    expect(outsiderView[1]).toEqual({ id: secret.id, seq: 3, workspace_id: workspace.id, type: "event.hidden", visibility: "agents", topics: [`workspace:${workspace.id}`], data: {}, occurred_at: secret.occurred_at });
    expect(JSON.stringify(outsiderView)).not.toContain("secret");

    for (const viewer of [insider.headers, owner.headers, createKey(desk, owner, ["tickets:read"]).headers]) {
      const full = await seen(viewer);
      expect(full[1]).toMatchObject({ seq: 3, type: "ticket.updated", data: { ticket: { subject: "secret" } }, topics: [`team:${workspace.id}:${teamId}`] });
    }
  });
});
