import { first } from "../db/store";
import { describe, expect, test } from "bun:test";
import { and, asc, eq, gt } from "drizzle-orm";
import { onAccessEnded, type AccessEnded } from "../auth/session-signals";
import { auditLogs } from "../audit/audit.table";
import { events } from "../events/events.table";
import { teamMembers } from "../teams/teams.table";
import { members } from "./members.table";
import { openTicketCounter } from "./members.public";
import { provide } from "../lib/ports";
import { modules } from "../registry";
import { withPorts } from "../../test/kit/ports";
import { startTestDesk, type TestDesk } from "../../test/harness";
import { addMember, createKey, createWorkspaceWithOwner } from "../../test/factories";
import { newTicket } from "../../test/kit/tickets";
import { lastSeq } from "../../test/kit/events";

const desk = await startTestDesk();

const eventsAfter = async (d: TestDesk, wid: string, seq: number) =>
  await d.deps.db
    .select()
    .from(events)
    .where(and(eq(events.workspaceId, wid), gt(events.seq, seq)))
    .orderBy(asc(events.seq));
const roleOf = async (wid: string, uid: string) =>
  first(
    await desk.deps.db
      .select({ role: members.role })
      .from(members)
      .where(and(eq(members.workspaceId, wid), eq(members.userId, uid)))
      .limit(1),
  )?.role;

describe("GET /v1/members", () => {
  test("any member lists the workspace's members as SPEC.md's Member; keys need settings:read", async () => {
    const { workspace, owner } = await createWorkspaceWithOwner(desk);
    const viewer = await addMember(desk, workspace.id, "viewer");
    const other = await createWorkspaceWithOwner(desk);
    await addMember(desk, other.workspace.id, "agent");
    expect((await desk.api("GET", "/v1/members")).status).toBe(401);
    expect(
      (await desk.api("GET", "/v1/members", { headers: (await createKey(desk, owner, ["tickets:read"])).headers }))
        .status,
    ).toBe(403);
    expect(
      (await desk.api("GET", "/v1/members", { headers: { ...viewer.headers, "desk-workspace": other.workspace.id } }))
        .status,
    ).toBe(404);
    expect((await desk.api("GET", "/v1/members?limit=0", { headers: viewer.headers })).status).toBe(422);
    const res = await desk.api("GET", "/v1/members", { headers: viewer.headers });
    expect(res.status).toBe(200);
    expect(res.body.next_cursor).toBeNull();
    expect(res.body.data).toHaveLength(2);
    expect(res.body.data[0]).toEqual({
      user: { id: owner.id, name: owner.name, email: owner.email, avatar_url: null, avatar_source: null },
      role: "owner",
      availability: "online",
      presence: "online",
      max_open_tickets: null,
      open_tickets: 0,
      last_seen_at: null,
      created_at: expect.any(String),
    });
    expect(res.body.data[1].user.id).toBe(viewer.id);
    const page = await desk.api("GET", "/v1/members?limit=1", {
      headers: (await createKey(desk, owner, ["settings:read"])).headers,
    });
    expect(page.body.data.map((m: { user: { id: string } }) => m.user.id)).toEqual([owner.id]);
    const next = await desk.api("GET", `/v1/members?limit=1&cursor=${page.body.next_cursor}`, {
      headers: viewer.headers,
    });
    expect(next.body.data.map((m: { user: { id: string } }) => m.user.id)).toEqual([viewer.id]);
    const filtered = await desk.api("GET", "/v1/members?role=viewer", { headers: viewer.headers });
    expect(filtered.body.data).toHaveLength(1);
  });

  test("open_tickets comes from the counter the tickets feature provides", async () => {
    const fresh = await startTestDesk({
      modules: withPorts(
        modules,
        provide(openTicketCounter, (_db, _wid, ids) => new Map(ids.map((id) => [id, 3]))),
      ),
    });
    const { owner } = await createWorkspaceWithOwner(fresh);
    const res = await fresh.api("GET", "/v1/members", { headers: owner.headers });
    expect(res.body.data[0].open_tickets).toBe(3);
  });

  test("open_tickets counts the member's unsolved, live tickets in this workspace (the real counter)", async () => {
    const { workspace, owner } = await createWorkspaceWithOwner(desk);
    const agent = await addMember(desk, workspace.id, "agent");
    const other = await createWorkspaceWithOwner(desk);
    await addMember(desk, other.workspace.id, "agent");
    for (const status of ["open", "pending", "on_hold", "solved"])
      await newTicket(desk, owner, { assignee_id: agent.id, status });
    await newTicket(desk, owner, { assignee_id: owner.id });
    const deleted = await newTicket(desk, owner, { assignee_id: agent.id });
    expect((await desk.api("DELETE", `/v1/tickets/${deleted.id}`, { headers: owner.headers })).status).toBe(204);
    const res = await desk.api("GET", "/v1/members", { headers: owner.headers });
    const count = (id: string) => res.body.data.find((m: { user: { id: string } }) => m.user.id === id).open_tickets;
    expect(count(agent.id)).toBe(3);
    expect(count(owner.id)).toBe(1);
    const one = await desk.api("PATCH", `/v1/members/${agent.id}`, { headers: owner.headers, body: { role: "agent" } });
    expect(one.body.open_tickets).toBe(3);
  });
});

describe("PATCH /v1/members/{user_id}", () => {
  test("access and input rules", async () => {
    const { workspace, owner } = await createWorkspaceWithOwner(desk);
    const agent = await addMember(desk, workspace.id, "agent");
    const admin = await addMember(desk, workspace.id, "admin");
    const outsider = await createWorkspaceWithOwner(desk);
    expect((await desk.api("PATCH", `/v1/members/${agent.id}`, { body: { role: "viewer" } })).status).toBe(401);
    expect(
      (await desk.api("PATCH", `/v1/members/${owner.id}`, { headers: agent.headers, body: { role: "viewer" } })).status,
    ).toBe(403);
    expect(
      (
        await desk.api("PATCH", `/v1/members/${agent.id}`, {
          headers: (await createKey(desk, owner, ["settings:read"])).headers,
          body: { role: "viewer" },
        })
      ).status,
    ).toBe(403);
    expect(
      (
        await desk.api("PATCH", `/v1/members/${outsider.owner.id}`, {
          headers: owner.headers,
          body: { role: "viewer" },
        })
      ).status,
    ).toBe(404);
    for (const body of [{ role: "superuser" }, { role: 1 }, {}, { role: "agent", extra: true }]) {
      const res = await desk.api("PATCH", `/v1/members/${agent.id}`, { headers: owner.headers, body });
      expect(res.status, JSON.stringify(body)).toBe(422);
    }
    // an admin may not grant the owner role nor change an owner
    expect(
      (await desk.api("PATCH", `/v1/members/${agent.id}`, { headers: admin.headers, body: { role: "owner" } })).status,
    ).toBe(403);
    expect(
      (await desk.api("PATCH", `/v1/members/${owner.id}`, { headers: admin.headers, body: { role: "agent" } })).status,
    ).toBe(403);
    expect(
      (
        await desk.api("PATCH", `/v1/members/${agent.id}`, {
          headers: (await createKey(desk, owner, ["settings:read", "settings:write"])).headers,
          body: { role: "owner" },
        })
      ).status,
    ).toBe(403);
    // the last owner cannot be demoted
    const last = await desk.api("PATCH", `/v1/members/${owner.id}`, {
      headers: owner.headers,
      body: { role: "admin" },
    });
    expect(last.status).toBe(422);
    expect(await roleOf(workspace.id, owner.id)).toBe("owner");
    expect(await roleOf(workspace.id, agent.id)).toBe("agent");
  });

  test("an admin changes a role: stored, audit-logged, one member.updated to the user's topic", async () => {
    const { workspace, owner } = await createWorkspaceWithOwner(desk);
    const agent = await addMember(desk, workspace.id, "agent");
    const admin = await addMember(desk, workspace.id, "admin");
    const before = await lastSeq(desk, workspace.id);
    const res = await desk.api("PATCH", `/v1/members/${agent.id}`, {
      headers: admin.headers,
      body: { role: "viewer" },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ user: { id: agent.id }, role: "viewer" });
    expect(await roleOf(workspace.id, agent.id)).toBe("viewer");
    const emitted = await eventsAfter(desk, workspace.id, before);
    expect(emitted.map((e) => e.type)).toEqual(["member.updated"]);
    expect(emitted[0]!.topics).toEqual([`workspace:${workspace.id}`, `user:${agent.id}`]);
    expect(emitted[0]!.data).toEqual({ member: res.body });
    const audit = await desk.deps.db
      .select()
      .from(auditLogs)
      .where(and(eq(auditLogs.workspaceId, workspace.id), eq(auditLogs.action, "member.role_changed")));
    expect(audit).toEqual([
      expect.objectContaining({ actorUserId: admin.id, entityId: agent.id, data: { from: "agent", to: "viewer" } }),
    ]);
    // an owner may make another owner, and then step down
    expect(
      (await desk.api("PATCH", `/v1/members/${admin.id}`, { headers: owner.headers, body: { role: "owner" } })).status,
    ).toBe(200);
    expect(
      (await desk.api("PATCH", `/v1/members/${owner.id}`, { headers: owner.headers, body: { role: "agent" } })).status,
    ).toBe(200);
    expect(await roleOf(workspace.id, owner.id)).toBe("agent");
  });
});

describe("DELETE /v1/members/{user_id}", () => {
  test("access rules and the last owner", async () => {
    const { workspace, owner } = await createWorkspaceWithOwner(desk);
    const agent = await addMember(desk, workspace.id, "agent");
    const admin = await addMember(desk, workspace.id, "admin");
    const outsider = await createWorkspaceWithOwner(desk);
    expect((await desk.api("DELETE", `/v1/members/${agent.id}`)).status).toBe(401);
    expect((await desk.api("DELETE", `/v1/members/${admin.id}`, { headers: agent.headers })).status).toBe(403);
    expect((await desk.api("DELETE", `/v1/members/${outsider.owner.id}`, { headers: owner.headers })).status).toBe(404);
    expect((await desk.api("DELETE", `/v1/members/${owner.id}`, { headers: admin.headers })).status).toBe(403);
    expect((await desk.api("DELETE", `/v1/members/${owner.id}`, { headers: owner.headers })).status).toBe(422);
    expect(await roleOf(workspace.id, owner.id)).toBe("owner");
    expect(await roleOf(outsider.workspace.id, outsider.owner.id)).toBe("owner");
  });

  test("removes the member and their teams, emits member.removed, signals after commit, ends access", async () => {
    const { workspace, owner } = await createWorkspaceWithOwner(desk);
    const agent = await addMember(desk, workspace.id, "agent");
    const team = await desk.api("POST", "/v1/teams", {
      headers: owner.headers,
      body: { name: "Tier 2", member_ids: [agent.id, owner.id] },
    });
    const signals: AccessEnded[] = [];
    const off = onAccessEnded(desk.deps.db, (s) => signals.push(s));
    const before = await lastSeq(desk, workspace.id);
    const res = await desk.api("DELETE", `/v1/members/${agent.id}`, { headers: owner.headers });
    off();
    expect(res.status).toBe(204);
    expect(await roleOf(workspace.id, agent.id)).toBeUndefined();
    expect(
      (await desk.deps.db.select().from(teamMembers).where(eq(teamMembers.teamId, team.body.id))).map((r) => r.userId),
    ).toEqual([owner.id]);
    const emitted = await eventsAfter(desk, workspace.id, before);
    expect(emitted.map((e) => [e.type, e.data, e.topics])).toEqual([
      ["member.removed", { user_id: agent.id }, [`workspace:${workspace.id}`, `user:${agent.id}`]],
    ]);
    expect(signals).toEqual([{ kind: "membership", userId: agent.id, workspaceId: workspace.id }]);
    expect(
      await desk.deps.db
        .select()
        .from(auditLogs)
        .where(and(eq(auditLogs.workspaceId, workspace.id), eq(auditLogs.action, "member.removed"))),
    ).toHaveLength(1);
    expect((await desk.api("GET", "/v1/members", { headers: agent.headers })).status).toBe(404);
  });
});
