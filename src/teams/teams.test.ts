import { first } from "../db/store";
import { describe, expect, test } from "bun:test";
import { and, asc, eq, gt } from "drizzle-orm";
import { auditLogs } from "../audit/audit.table";
import { events } from "../events/events.table";
import { teamMembers, teams } from "./teams.table";
import { startTestDesk, type TestDesk } from "../../test/harness";
import { addMember, createKey, createWorkspaceWithOwner } from "../../test/factories";
import { lastSeq } from "../../test/kit/events";

const desk = await startTestDesk();

const eventsAfter = async (d: TestDesk, wid: string, seq: number) =>
  await d.deps.db
    .select()
    .from(events)
    .where(and(eq(events.workspaceId, wid), gt(events.seq, seq)))
    .orderBy(asc(events.seq));
const storedMembers = async (teamId: string) =>
  (await desk.deps.db.select().from(teamMembers).where(eq(teamMembers.teamId, teamId))).map((r) => r.userId).sort();
const auditActions = async (wid: string) =>
  (await desk.deps.db.select({ a: auditLogs.action }).from(auditLogs).where(eq(auditLogs.workspaceId, wid))).map(
    (r) => r.a,
  );

describe("teams", () => {
  test("access: none 401, agent writes 403, key scopes 403, other workspace 404", async () => {
    const { workspace, owner } = await createWorkspaceWithOwner(desk);
    const other = await createWorkspaceWithOwner(desk);
    const agent = await addMember(desk, workspace.id, "agent");
    const created = await desk.api("POST", "/v1/teams", { headers: owner.headers, body: { name: "Billing" } });
    expect((await desk.api("GET", "/v1/teams")).status).toBe(401);
    expect((await desk.api("POST", "/v1/teams", { headers: agent.headers, body: { name: "X" } })).status).toBe(403);
    expect(
      (await desk.api("PATCH", `/v1/teams/${created.body.id}`, { headers: agent.headers, body: { name: "X" } })).status,
    ).toBe(403);
    expect((await desk.api("DELETE", `/v1/teams/${created.body.id}`, { headers: agent.headers })).status).toBe(403);
    expect(
      (
        await desk.api("POST", "/v1/teams", {
          headers: (await createKey(desk, owner, ["settings:read"])).headers,
          body: { name: "X" },
        })
      ).status,
    ).toBe(403);
    expect(
      (await desk.api("GET", "/v1/teams", { headers: (await createKey(desk, owner, ["tickets:read"])).headers }))
        .status,
    ).toBe(403);
    expect((await desk.api("GET", `/v1/teams/${created.body.id}`, { headers: agent.headers })).status).toBe(200);
    for (const [method, body] of [
      ["GET", undefined],
      ["PATCH", { name: "Stolen" }],
      ["DELETE", undefined],
    ] as const) {
      expect(
        (await desk.api(method, `/v1/teams/${created.body.id}`, { headers: other.owner.headers, body })).status,
        method,
      ).toBe(404);
    }
    expect(first(await desk.deps.db.select().from(teams).where(eq(teams.id, created.body.id)).limit(1))!.name).toBe(
      "Billing",
    );
  });

  test("bad input answers 422 and stores nothing", async () => {
    const { workspace, owner } = await createWorkspaceWithOwner(desk);
    const outsider = await createWorkspaceWithOwner(desk);
    const before = await lastSeq(desk, workspace.id);
    const cases: Array<[unknown, string]> = [
      [{}, "body.name"],
      [{ name: "" }, "body.name"],
      [{ name: "<b>x</b>" }, "body.name"],
      [{ name: "Ok", private: "yes" }, "body.private"],
      [{ name: "Ok", member_ids: "all" }, "body.member_ids"],
      [{ name: "Ok", member_ids: [owner.id, outsider.owner.id] }, "body.member_ids.1"],
      [{ name: "Ok", workspace_id: outsider.workspace.id }, "body"],
    ];
    for (const [body, location] of cases) {
      const res = await desk.api("POST", "/v1/teams", { headers: owner.headers, body });
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(
        res.body.errors.map((e: { location: string }) => e.location),
        JSON.stringify(body),
      ).toContain(location);
    }
    expect(await desk.deps.db.select().from(teams).where(eq(teams.workspaceId, workspace.id))).toEqual([]);
    expect(await lastSeq(desk, workspace.id)).toBe(before);
  });

  test("create, read, update, delete: stored rows, exactly their events, audit-logged", async () => {
    const { workspace, owner } = await createWorkspaceWithOwner(desk);
    const agent = await addMember(desk, workspace.id, "agent");
    const viewer = await addMember(desk, workspace.id, "viewer");
    let seq = await lastSeq(desk, workspace.id);
    const created = await desk.api("POST", "/v1/teams", {
      headers: owner.headers,
      body: { name: "  Escalations ", member_ids: [agent.id, agent.id], private: true },
    });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      id: expect.any(String),
      name: "Escalations",
      member_ids: [agent.id],
      private: true,
      created_at: expect.any(String),
    });
    const id = created.body.id as string;
    expect(first(await desk.deps.db.select().from(teams).where(eq(teams.id, id)).limit(1))).toMatchObject({
      workspaceId: workspace.id,
      name: "Escalations",
      private: true,
    });
    expect(await storedMembers(id)).toEqual([agent.id]);
    let emitted = await eventsAfter(desk, workspace.id, seq);
    expect(emitted.map((e) => [e.type, e.data])).toEqual([["team.created", { team: created.body }]]);

    const list = await desk.api("GET", "/v1/teams", { headers: viewer.headers });
    expect(list.body).toEqual({ data: [created.body], next_cursor: null });

    seq = await lastSeq(desk, workspace.id);
    // changing a private team's members grants reading its tickets: the key needs tickets:read too
    const key = await createKey(desk, owner, ["settings:read", "settings:write", "tickets:read"]);
    const updated = await desk.api("PATCH", `/v1/teams/${id}`, {
      headers: key.headers,
      body: { member_ids: [viewer.id, owner.id], private: false },
    });
    expect(updated.status).toBe(200);
    expect(updated.body.member_ids).toEqual([viewer.id, owner.id].sort());
    expect(updated.body.private).toBe(false);
    expect(await storedMembers(id)).toEqual([viewer.id, owner.id].sort());
    emitted = await eventsAfter(desk, workspace.id, seq);
    expect(emitted.map((e) => [e.type, e.data])).toEqual([["team.updated", { team: updated.body }]]);
    seq = await lastSeq(desk, workspace.id);
    expect(
      (await desk.api("PATCH", `/v1/teams/${id}`, { headers: owner.headers, body: { name: "Escalations" } })).status,
    ).toBe(200);
    expect(await lastSeq(desk, workspace.id)).toBe(seq);

    const removed = await desk.api("DELETE", `/v1/teams/${id}`, { headers: owner.headers });
    expect(removed.status).toBe(204);
    expect(first(await desk.deps.db.select().from(teams).where(eq(teams.id, id)).limit(1))).toBeUndefined();
    expect(await storedMembers(id)).toEqual([]);
    expect((await eventsAfter(desk, workspace.id, seq)).map((e) => [e.type, e.data])).toEqual([
      ["team.deleted", { team_id: id }],
    ]);
    expect((await desk.api("GET", `/v1/teams/${id}`, { headers: owner.headers })).status).toBe(404);
    expect(await auditActions(workspace.id)).toEqual(
      expect.arrayContaining(["team.created", "team.updated", "team.deleted"]),
    );
  });
});
