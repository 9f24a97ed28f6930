import { first, rowsOf } from "../db/store";
import { describe, expect, test } from "bun:test";
import { and, eq, sql } from "drizzle-orm";
import { addMember, createKey, createWorkspaceWithOwner, type Member } from "../../test/factories";
import { startTestDesk, type TestDesk } from "../../test/harness";
import { auditLogs } from "../audit/audit.table";
import { transact } from "../db/tx";
import { manualClock } from "../lib/clock";
import { members } from "../members/members.table";
import { notificationsOf } from "../notifications/notifications.public";
import { eventsAfter, newTeam, newTicket } from "../../test/kit/tickets";
import { enqueue } from "../jobs/enqueue";
import { autoAwayJob } from "./assignment.jobs";
import { autoAssignTicket } from "./assignment.public";
import { lastSeq } from "../../test/kit/events";

const clock = manualClock(new Date("2026-03-02T09:00:00Z"));
const desk = await startTestDesk({ clock });

const auditOf = async (d: TestDesk, workspaceId: string, action: string) =>
  await d.deps.db
    .select()
    .from(auditLogs)
    .where(and(eq(auditLogs.workspaceId, workspaceId), eq(auditLogs.action, action)));

const memberRow = async (workspaceId: string, userId: string) =>
  first(
    await desk.deps.db
      .select()
      .from(members)
      .where(and(eq(members.workspaceId, workspaceId), eq(members.userId, userId)))
      .limit(1),
  )!;

/** Tickets created through the API, then the consumers (auto-assignment, notifications) run. */
async function created(d: TestDesk, member: Pick<Member, "headers">, n: number, body: Record<string, unknown> = {}) {
  const ids: string[] = [];
  for (let i = 0; i < n; i++) ids.push((await newTicket(d, member, body)).id);
  await d.consumers.drain();
  await d.consumers.drain();
  return ids;
}

const assigneesOf = async (d: TestDesk, ids: string[]) =>
  await Promise.all(
    ids.map(
      async (id) =>
        (await rowsOf<{ a: string | null }>(d.deps.db, sql`SELECT assignee_id AS a FROM tickets WHERE id = ${id}`))[0]!
          .a,
    ),
  );

/** A workspace with an owner, two agents and a viewer, in round robin (members sorted by user id). */
async function team(mode = "round_robin") {
  const { workspace, owner } = await createWorkspaceWithOwner(desk);
  const a = await addMember(desk, workspace.id, "agent");
  const b = await addMember(desk, workspace.id, "agent");
  const viewer = await addMember(desk, workspace.id, "viewer");
  const res = await desk.api("PATCH", "/v1/assignment", { headers: owner.headers, body: { mode } });
  expect(res.status).toBe(200);
  const order = [owner.id, a.id, b.id].sort();
  return { workspace, owner, a, b, viewer, order };
}

describe("GET /v1/assignment", () => {
  test("any member reads it; keys need settings:read; another workspace 404; defaults", async () => {
    const { workspace, owner } = await createWorkspaceWithOwner(desk);
    const viewer = await addMember(desk, workspace.id, "viewer");
    const other = await createWorkspaceWithOwner(desk);
    expect((await desk.api("GET", "/v1/assignment")).status).toBe(401);
    expect(
      (await desk.api("GET", "/v1/assignment", { headers: (await createKey(desk, owner, ["tickets:read"])).headers }))
        .status,
    ).toBe(403);
    expect(
      (
        await desk.api("GET", "/v1/assignment", {
          headers: { ...viewer.headers, "desk-workspace": other.workspace.id },
        })
      ).status,
    ).toBe(404);
    const res = await desk.api("GET", "/v1/assignment", { headers: viewer.headers });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ mode: "none", rules: [], auto_away_minutes: 0 });
    expect(
      (await desk.api("GET", "/v1/assignment", { headers: (await createKey(desk, owner, ["settings:read"])).headers }))
        .status,
    ).toBe(200);
  });
});

describe("PATCH /v1/assignment", () => {
  test("access: none 401, agent 403, key without settings:write 403, another workspace 404", async () => {
    const { workspace, owner } = await createWorkspaceWithOwner(desk);
    const agent = await addMember(desk, workspace.id, "agent");
    const other = await createWorkspaceWithOwner(desk);
    const body = { mode: "round_robin" };
    expect((await desk.api("PATCH", "/v1/assignment", { body })).status).toBe(401);
    expect((await desk.api("PATCH", "/v1/assignment", { headers: agent.headers, body })).status).toBe(403);
    expect(
      (
        await desk.api("PATCH", "/v1/assignment", {
          headers: (await createKey(desk, owner, ["settings:read"])).headers,
          body,
        })
      ).status,
    ).toBe(403);
    expect(
      (
        await desk.api("PATCH", "/v1/assignment", {
          headers: { ...owner.headers, "desk-workspace": other.workspace.id },
          body,
        })
      ).status,
    ).toBe(404);
    expect((await desk.api("GET", "/v1/assignment", { headers: owner.headers })).body.mode).toBe("none");
  });

  test("bad input is 422 at the field and nothing is stored", async () => {
    const { workspace, owner } = await createWorkspaceWithOwner(desk);
    const other = await createWorkspaceWithOwner(desk);
    const foreignTeam = await newTeam(desk, other.owner, { name: "Theirs" });
    const mine = await newTeam(desk, owner, { name: "Ours" });
    const rule = { target_type: "team", target_id: mine.id, mode: "round_robin" };
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ mode: "random" }, "body.mode"],
      [{ auto_away_minutes: 5 }, "body.auto_away_minutes"],
      [{ auto_away_minutes: 1441 }, "body.auto_away_minutes"],
      [{ auto_away_minutes: 12.5 }, "body.auto_away_minutes"],
      [{ auto_away_minutes: -1 }, "body.auto_away_minutes"],
      [{ rules: [{ ...rule, target_type: "group" }] }, "body.rules.0.target_type"],
      [{ rules: [{ ...rule, mode: "x" }] }, "body.rules.0.mode"],
      [{ rules: [rule, { ...rule, extra: 1 }] }, "body.rules.1"],
      [{ mode: "round_robin", rules: [rule, { ...rule, target_id: foreignTeam.id }] }, "body.rules.1.target_id"],
      [{ rules: [{ target_type: "mailbox", target_id: "nope", mode: "none" }] }, "body.rules.0.target_id"],
      [{ mode: "round_robin", rules: [rule, rule] }, "body.rules.1"],
      [{ extra: true }, "body"],
    ];
    for (const [body, location] of cases) {
      const res = await desk.api("PATCH", "/v1/assignment", { headers: owner.headers, body });
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body.code).toBe("validation_failed");
      expect(
        res.body.errors[0].location.startsWith(location),
        `${JSON.stringify(body)} ${res.body.errors[0].location}`,
      ).toBe(true);
    }
    expect((await desk.api("GET", "/v1/assignment", { headers: owner.headers })).body).toEqual({
      mode: "none",
      rules: [],
      auto_away_minutes: 0,
    });
    expect(await auditOf(desk, workspace.id, "assignment.updated")).toEqual([]);
  });

  test("stores mode (as settings.auto_assign), replaces the rule list, sets auto-away; audit and workspace.updated", async () => {
    const { workspace, owner } = await createWorkspaceWithOwner(desk);
    const t1 = await newTeam(desk, owner, { name: "One" });
    const t2 = await newTeam(desk, owner, { name: "Two" });
    const before = await lastSeq(desk, workspace.id);
    const res = await desk.api("PATCH", "/v1/assignment", {
      headers: owner.headers,
      body: {
        mode: "load_balanced",
        rules: [
          { target_type: "team", target_id: t1.id, mode: "round_robin" },
          { target_type: "team", target_id: t2.id, mode: "none" },
        ],
        auto_away_minutes: 30,
      },
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      mode: "load_balanced",
      rules: [
        { target_type: "team", target_id: t1.id, mode: "round_robin" },
        { target_type: "team", target_id: t2.id, mode: "none" },
      ],
      auto_away_minutes: 30,
    });
    expect((await eventsAfter(desk, workspace.id, before)).map((e) => e.type)).toEqual(["workspace.updated"]);
    const ws = await desk.api("GET", "/v1/workspace", { headers: owner.headers });
    expect(ws.body.settings.auto_assign).toBe("load_balanced");
    // rules replace the whole list
    const replaced = await desk.api("PATCH", "/v1/assignment", {
      headers: owner.headers,
      body: { rules: [{ target_type: "team", target_id: t2.id, mode: "round_robin" }] },
    });
    expect(replaced.body.rules).toEqual([{ target_type: "team", target_id: t2.id, mode: "round_robin" }]);
    expect(replaced.body.auto_away_minutes).toBe(30);
    // PATCH /v1/workspace's auto_assign is the same value
    await desk.api("PATCH", "/v1/workspace", { headers: owner.headers, body: { settings: { auto_assign: "none" } } });
    expect((await desk.api("GET", "/v1/assignment", { headers: owner.headers })).body.mode).toBe("none");
    const audits = await auditOf(desk, workspace.id, "assignment.updated");
    expect(audits).toHaveLength(2);
    expect(audits[0]!.data).toMatchObject({
      from: { mode: "none" },
      to: { mode: "load_balanced", auto_away_minutes: 30 },
    });
    // an unchanged PATCH records nothing
    await desk.api("PATCH", "/v1/assignment", { headers: owner.headers, body: { auto_away_minutes: 30 } });
    expect(await auditOf(desk, workspace.id, "assignment.updated")).toHaveLength(2);
  });
});

describe("auto-assignment on creation", () => {
  test("round robin takes turns among online agents and admins; viewers never; the assignee is notified", async () => {
    const { workspace, viewer, order, owner } = await team();
    const ids = await created(desk, owner, 6);
    expect(await assigneesOf(desk, ids)).toEqual([...order, ...order]);
    expect(await assigneesOf(desk, ids)).not.toContain(viewer.id);
    const [first] = order;
    const told = await transact(
      desk.deps.db,
      async (tx) => await notificationsOf(tx, workspace.id, first!, ["assigned"]),
    );
    // the owner created the tickets but auto-assignment assigned them: the owner is told too
    expect(told).toHaveLength(2);
    expect(told[0]!.data).toMatchObject({ by: null, by_name: "auto-assignment", via: "system" });
    // a ticket created already assigned, or spam, is left alone
    const [kept] = await created(desk, owner, 1, { assignee_id: viewer.id === first ? order[1] : first });
    expect(await assigneesOf(desk, [kept!])).toEqual([viewer.id === first ? order[1] : first]);
  });

  test("only online members under their cap; offline, away and capped members are skipped; nobody eligible leaves it unassigned", async () => {
    const { owner, a, b } = await team();
    await desk.api("PATCH", "/v1/members/me/availability", {
      headers: owner.headers,
      body: { availability: "offline" },
    });
    await desk.api("PATCH", `/v1/members/${a.id}/availability`, {
      headers: owner.headers,
      body: { max_open_tickets: 1 },
    });
    const ids = await created(desk, owner, 3);
    // a takes one (then is at the cap), b takes the rest
    expect((await assigneesOf(desk, ids)).sort()).toEqual([a.id, b.id, b.id].sort());
    await desk.api("PATCH", "/v1/members/me/availability", { headers: b.headers, body: { availability: "away" } });
    const [none] = await created(desk, owner, 1);
    expect(await assigneesOf(desk, [none!])).toEqual([null]);
    // solving a's ticket frees a slot under the cap
    const aTicket = ids[(await assigneesOf(desk, ids)).indexOf(a.id)]!;
    await desk.api("PATCH", `/v1/tickets/${aTicket}`, { headers: owner.headers, body: { status: "solved" } });
    const [next] = await created(desk, owner, 1);
    expect(await assigneesOf(desk, [next!])).toEqual([a.id]);
  });

  test("load balanced gives the member with the fewest open tickets; ties in turn order", async () => {
    const { owner, a, b, order } = await team("load_balanced");
    await created(desk, owner, 2, { assignee_id: a.id });
    await created(desk, owner, 1, { assignee_id: owner.id });
    const ids = await created(desk, owner, 4);
    // b has 0, owner 1, a 2: b, then b/owner tie...
    const got = await assigneesOf(desk, ids);
    expect(got[0]).toBe(b.id);
    const counts = new Map<string, number>([
      [a.id, 2],
      [owner.id, 1],
      [b.id, 0],
    ]);
    for (const id of got) counts.set(id!, (counts.get(id!) ?? 0) + 1);
    // after 4 more, everyone is within one of each other
    const values = [...counts.values()];
    expect(Math.max(...values) - Math.min(...values)).toBeLessThanOrEqual(1);
    expect(order).toHaveLength(3);
  });

  test("team and mailbox rules: a team's tickets go to its members by the team's mode; none turns it off", async () => {
    const { owner, a, b } = await team("none");
    const t = await newTeam(desk, owner, { name: "Tier 2", member_ids: [a.id, b.id] });
    // Before any rule the workspace has nothing to assign (the consumer caches that answer); the
    // rules below append no event, yet must end it.
    const [before] = await created(desk, owner, 1, { team_id: t.id });
    expect(await assigneesOf(desk, [before!])).toEqual([null]);
    await desk.api("PATCH", "/v1/assignment", {
      headers: owner.headers,
      body: { rules: [{ target_type: "team", target_id: t.id, mode: "round_robin" }] },
    });
    const [plain] = await created(desk, owner, 1);
    expect(await assigneesOf(desk, [plain!])).toEqual([null]);
    const ids = await created(desk, owner, 4, { team_id: t.id });
    const order = [a.id, b.id].sort();
    expect(await assigneesOf(desk, ids)).toEqual([...order, ...order]);
    // a mailbox rule: that mailbox's tickets go round robin among everyone eligible; a team rule wins over it
    const mailbox = await desk.api("POST", "/v1/mailboxes", {
      headers: owner.headers,
      body: { name: "Billing", email: `billing-${t.id.slice(-6)}@rules.test` },
    });
    expect(mailbox.status).toBe(201);
    await desk.api("PATCH", "/v1/assignment", {
      headers: owner.headers,
      body: {
        rules: [
          { target_type: "mailbox", target_id: mailbox.body.id, mode: "load_balanced" },
          { target_type: "team", target_id: t.id, mode: "none" },
        ],
      },
    });
    const [viaMailbox] = await created(desk, owner, 1, { mailbox_id: mailbox.body.id });
    // the owner has no open tickets, a and b two each: load balanced picks the owner
    expect(await assigneesOf(desk, [viaMailbox!])).toEqual([owner.id]);
    const [teamWins] = await created(desk, owner, 1, { mailbox_id: mailbox.body.id, team_id: t.id });
    expect(await assigneesOf(desk, [teamWins!])).toEqual([null]);
  });

  test("autoAssignTicket (triage's door) assigns an unassigned ticket and leaves an assigned one", async () => {
    const { workspace, owner, order } = await team();
    await desk.api("PATCH", "/v1/assignment", { headers: owner.headers, body: { mode: "none" } });
    const [id] = await created(desk, owner, 1);
    expect(await assigneesOf(desk, [id!])).toEqual([null]);
    await desk.api("PATCH", "/v1/assignment", { headers: owner.headers, body: { mode: "round_robin" } });
    expect(await autoAssignTicket(desk.deps, workspace.id, id!)).toBe(order[0]!);
    expect(await autoAssignTicket(desk.deps, workspace.id, id!)).toBeNull();
    expect(await assigneesOf(desk, [id!])).toEqual([order[0]!]);
  });

  test("round robin stays fair across a restart (the turn is stored)", async () => {
    const first = await startTestDesk({ clock, keepAlive: true });
    const { workspace, owner } = await createWorkspaceWithOwner(first);
    const a = await addMember(first, workspace.id, "agent");
    const b = await addMember(first, workspace.id, "agent");
    await first.api("PATCH", "/v1/assignment", { headers: owner.headers, body: { mode: "round_robin" } });
    const order = [owner.id, a.id, b.id].sort();
    const before = await created(first, owner, 4);
    expect(await assigneesOf(first, before)).toEqual([...order, order[0]!]);
    await first.stop();
    const second = await startTestDesk({
      clock,
      config: { dataDir: first.dataDir, databasePath: first.deps.config.databasePath },
    });
    const after = await created(second, owner, 2);
    expect(await assigneesOf(second, after)).toEqual([order[1]!, order[2]!]);
  });
});

describe("PATCH /v1/members/{user_id}/availability", () => {
  test("access: none 401, an agent on someone else 403, an agent's cap 403, key scopes, another workspace 404, 422s", async () => {
    const { workspace, owner } = await createWorkspaceWithOwner(desk);
    const agent = await addMember(desk, workspace.id, "agent");
    const viewer = await addMember(desk, workspace.id, "viewer");
    const other = await createWorkspaceWithOwner(desk);
    const path = (id: string) => `/v1/members/${id}/availability`;
    expect((await desk.api("PATCH", path("me"), { body: { availability: "away" } })).status).toBe(401);
    expect(
      (await desk.api("PATCH", path(owner.id), { headers: agent.headers, body: { availability: "away" } })).status,
    ).toBe(403);
    expect(
      (await desk.api("PATCH", path("me"), { headers: agent.headers, body: { max_open_tickets: 5 } })).status,
    ).toBe(403);
    const readKey = await createKey(desk, owner, ["settings:read"]);
    expect(
      (await desk.api("PATCH", path(agent.id), { headers: readKey.headers, body: { availability: "away" } })).status,
    ).toBe(403);
    expect(
      (await desk.api("PATCH", path(other.owner.id), { headers: owner.headers, body: { availability: "away" } }))
        .status,
    ).toBe(404);
    expect(
      (
        await desk.api("PATCH", path(agent.id), {
          headers: { ...owner.headers, "desk-workspace": other.workspace.id },
          body: { availability: "away" },
        })
      ).status,
    ).toBe(404);
    const writeKey = await createKey(desk, owner, ["settings:write"]);
    const keyMe = await desk.api("PATCH", path("me"), { headers: writeKey.headers, body: { availability: "away" } });
    expect(keyMe.status).toBe(422);
    expect(keyMe.body.errors[0].location).toBe("path.user_id");
    for (const [body, location] of [
      [{ availability: "busy" }, "body.availability"],
      [{ max_open_tickets: 0 }, "body.max_open_tickets"],
      [{ max_open_tickets: 1001 }, "body.max_open_tickets"],
      [{ max_open_tickets: 2.5 }, "body.max_open_tickets"],
      [{ extra: 1 }, "body"],
    ] as const) {
      const res = await desk.api("PATCH", path(agent.id), { headers: owner.headers, body });
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body.errors[0].location.startsWith(location)).toBe(true);
    }
    // a cap for a viewer is refused
    const capped = await desk.api("PATCH", path(viewer.id), { headers: owner.headers, body: { max_open_tickets: 3 } });
    expect(capped.status).toBe(422);
    expect(capped.body.errors[0].location).toBe("body.max_open_tickets");
    expect((await memberRow(workspace.id, viewer.id)).maxOpenTickets).toBeNull();
    expect(await memberRow(workspace.id, agent.id)).toMatchObject({ availability: "online", maxOpenTickets: null });
  });

  test("own availability; an admin sets others' and caps; stored, member.updated to the user's topic, audit-logged", async () => {
    const { workspace, owner } = await createWorkspaceWithOwner(desk);
    const agent = await addMember(desk, workspace.id, "agent");
    let before = await lastSeq(desk, workspace.id);
    const own = await desk.api("PATCH", "/v1/members/me/availability", {
      headers: agent.headers,
      body: { availability: "away" },
    });
    expect(own.status).toBe(200);
    expect(own.body).toMatchObject({ user: { id: agent.id }, availability: "away", presence: "away" });
    expect((await memberRow(workspace.id, agent.id)).availability).toBe("away");
    let emitted = await eventsAfter(desk, workspace.id, before);
    expect(emitted.map((e) => [e.type, e.topics])).toEqual([
      ["member.updated", [`workspace:${workspace.id}`, `user:${agent.id}`]],
    ]);
    expect(emitted[0]!.data).toEqual({ member: own.body });
    before = await lastSeq(desk, workspace.id);
    const capped = await desk.api("PATCH", `/v1/members/${agent.id}/availability`, {
      headers: owner.headers,
      body: { availability: "online", max_open_tickets: 10 },
    });
    expect(capped.body).toMatchObject({ availability: "online", max_open_tickets: 10, open_tickets: 0 });
    expect(await memberRow(workspace.id, agent.id)).toMatchObject({ availability: "online", maxOpenTickets: 10 });
    emitted = await eventsAfter(desk, workspace.id, before);
    expect(emitted.map((e) => e.type)).toEqual(["member.updated"]);
    expect(await auditOf(desk, workspace.id, "member.assignment_cap_changed")).toEqual([
      expect.objectContaining({ actorUserId: owner.id, entityId: agent.id, data: { from: null, to: 10 } }),
    ]);
    expect((await auditOf(desk, workspace.id, "member.availability_changed")).map((r) => r.data)).toEqual([
      { from: "online", to: "away" },
      { from: "away", to: "online" },
    ]);
    // null clears the cap; a PATCH changing nothing emits nothing
    const cleared = await desk.api("PATCH", `/v1/members/${agent.id}/availability`, {
      headers: owner.headers,
      body: { max_open_tickets: null },
    });
    expect(cleared.body.max_open_tickets).toBeNull();
    before = await lastSeq(desk, workspace.id);
    await desk.api("PATCH", `/v1/members/${agent.id}/availability`, {
      headers: owner.headers,
      body: { availability: "online" },
    });
    expect(await eventsAfter(desk, workspace.id, before)).toEqual([]);
  });
});

describe("POST /v1/me/heartbeat and auto-away", () => {
  test("access: none 401, a key 403, another workspace 404", async () => {
    const { owner } = await createWorkspaceWithOwner(desk);
    const other = await createWorkspaceWithOwner(desk);
    expect((await desk.api("POST", "/v1/me/heartbeat")).status).toBe(401);
    expect(
      (
        await desk.api("POST", "/v1/me/heartbeat", {
          headers: (await createKey(desk, owner, ["settings:write"])).headers,
        })
      ).status,
    ).toBe(403);
    expect(
      (
        await desk.api("POST", "/v1/me/heartbeat", {
          headers: { ...owner.headers, "desk-workspace": other.workspace.id },
        })
      ).status,
    ).toBe(404);
  });

  test("records last_seen_at; presence turns away after auto_away_minutes without one (manual clock), and back", async () => {
    const { workspace, owner } = await createWorkspaceWithOwner(desk);
    const agent = await addMember(desk, workspace.id, "agent");
    // access tokens live 15 minutes of the moved clock: the reads use a key
    const reader = await createKey(desk, owner, ["settings:read"]);
    const presence = async () => {
      const res = await desk.api("GET", "/v1/members", { headers: reader.headers });
      return res.body.data.find((m: { user: { id: string } }) => m.user.id === agent.id) as {
        presence: string;
        availability: string;
        last_seen_at: string | null;
      };
    };
    expect(await presence()).toMatchObject({ presence: "online", last_seen_at: null });
    const beat = await desk.api("POST", "/v1/me/heartbeat", { headers: agent.headers });
    expect(beat.status).toBe(204);
    expect((await memberRow(workspace.id, agent.id)).lastSeenAt).toBe(clock.now().toISOString());
    await desk.api("PATCH", "/v1/assignment", { headers: owner.headers, body: { auto_away_minutes: 10 } });
    clock.advance(9 * 60_000);
    expect(await presence()).toMatchObject({ presence: "online", availability: "online" });
    clock.advance(2 * 60_000);
    expect(await presence()).toMatchObject({ presence: "away", availability: "online" });
    // an away member is not auto-assigned
    await desk.api("PATCH", "/v1/assignment", { headers: owner.headers, body: { mode: "round_robin" } });
    await desk.api("POST", "/v1/me/heartbeat", { headers: owner.headers });
    const ids = await created(desk, owner, 2);
    expect(await assigneesOf(desk, ids)).toEqual([owner.id, owner.id]);
    // the heartbeat brings them back, with member.updated (the away announcements of the jump settled first)
    await desk.jobs.drain();
    await desk.consumers.drain();
    const before = await lastSeq(desk, workspace.id);
    await desk.api("POST", "/v1/me/heartbeat", { headers: agent.headers });
    expect(await presence()).toMatchObject({ presence: "online" });
    expect((await eventsAfter(desk, workspace.id, before)).map((e) => e.type)).toEqual(["member.updated"]);
    // a heartbeat that changes nothing emits nothing
    const again = await lastSeq(desk, workspace.id);
    await desk.api("POST", "/v1/me/heartbeat", { headers: agent.headers });
    expect(await eventsAfter(desk, workspace.id, again)).toEqual([]);
    // auto-away off: presence is the availability whatever the heartbeat
    const admin = await createKey(desk, owner, ["settings:write"]);
    await desk.api("PATCH", "/v1/assignment", { headers: admin.headers, body: { auto_away_minutes: 0 } });
    clock.advance(24 * 60 * 60_000);
    expect(await presence()).toMatchObject({ presence: "online" });
  });
});

describe("the auto-away job", () => {
  test("announces (member.updated, presence away) each member the cutoff passed, once", async () => {
    const { workspace, owner } = await createWorkspaceWithOwner(desk);
    const agent = await addMember(desk, workspace.id, "agent");
    const offline = await addMember(desk, workspace.id, "agent");
    await desk.api("PATCH", "/v1/assignment", { headers: owner.headers, body: { auto_away_minutes: 10 } });
    await desk.api("PATCH", "/v1/members/me/availability", {
      headers: offline.headers,
      body: { availability: "offline" },
    });
    const runJob = async () => {
      await transact(desk.deps.db, async (tx) => await enqueue(tx, autoAwayJob, {}));
      await desk.jobs.drain();
    };
    await runJob();
    clock.advance(60_000);
    await desk.api("POST", "/v1/me/heartbeat", { headers: agent.headers });
    await desk.api("POST", "/v1/me/heartbeat", { headers: offline.headers });
    await runJob();
    clock.advance(5 * 60_000);
    await desk.api("POST", "/v1/me/heartbeat", { headers: owner.headers });
    let before = await lastSeq(desk, workspace.id);
    clock.advance(5 * 60_000 + 1);
    await runJob();
    // the agent's heartbeat is now over 10 minutes old; the owner's is not; the offline member stays offline
    const emitted = await eventsAfter(desk, workspace.id, before);
    expect(emitted.map((e) => e.type)).toEqual(["member.updated"]);
    expect(emitted[0]!.data).toMatchObject({
      member: { user: { id: agent.id }, availability: "online", presence: "away" },
    });
    before = await lastSeq(desk, workspace.id);
    await runJob();
    clock.advance(60_000);
    await runJob();
    expect(await eventsAfter(desk, workspace.id, before)).toEqual([]);
    clock.advance(5 * 60_000);
    await runJob();
    expect(
      (await eventsAfter(desk, workspace.id, before)).map(
        (e) => (e.data as { member: { user: { id: string } } }).member.user.id,
      ),
    ).toEqual([owner.id]);
  });
});

describe("assignment on reply", () => {
  const reply = (d: TestDesk, headers: Record<string, string>, ticketId: string, kind = "reply") =>
    d.api("POST", `/v1/tickets/${ticketId}/messages`, { headers, body: { kind, body_html: "<p>On it.</p>" } });

  test("an agent's reply takes an unassigned ticket; a second agent's reply then leaves it theirs", async () => {
    const { workspace, owner } = await createWorkspaceWithOwner(desk);
    const a = await addMember(desk, workspace.id, "agent");
    const b = await addMember(desk, workspace.id, "agent");
    const [ticket] = await created(desk, owner, 1, { body_html: "<p>Hello</p>", kind: "note" });
    expect(await assigneesOf(desk, [ticket!])).toEqual([null]);
    expect((await reply(desk, a.headers, ticket!, "note")).status).toBe(201);
    await desk.consumers.drain();
    expect(await assigneesOf(desk, [ticket!])).toEqual([null]);
    expect((await reply(desk, a.headers, ticket!)).status).toBe(201);
    expect((await reply(desk, b.headers, ticket!)).status).toBe(201);
    await desk.consumers.drain();
    await desk.consumers.drain();
    expect(await assigneesOf(desk, [ticket!])).toEqual([a.id]);
    const activities = await desk.api("GET", `/v1/tickets/${ticket}/activities`, { headers: owner.headers });
    const assigned = (activities.body.data as Array<{ type: string; actor: { user: { id: string } | null } }>).filter(
      (x) => x.type === "assigned",
    );
    expect(assigned.map((x) => x.actor.user?.id)).toEqual([a.id]);
    // Taking a ticket oneself tells nobody.
    expect((await notificationsOf(desk.deps.db, workspace.id, a.id)).filter((n) => n.type === "assigned")).toEqual([]);
  });

  test("API keys, automations and the setting turned off never take a ticket", async () => {
    const { workspace, owner } = await createWorkspaceWithOwner(desk);
    const a = await addMember(desk, workspace.id, "agent");
    const key = await createKey(desk, owner, ["tickets:read", "tickets:write"]);
    const [byKey, afterOff] = await created(desk, owner, 2, { body_html: "<p>Hello</p>", kind: "note" });
    expect((await reply(desk, key.headers, byKey!)).status).toBe(201);
    await desk.consumers.drain();
    expect(await assigneesOf(desk, [byKey!])).toEqual([null]);

    const off = await desk.api("PATCH", "/v1/workspace", {
      headers: owner.headers,
      body: { settings: { assign_on_reply: false } },
    });
    expect(off.status).toBe(200);
    expect(off.body.settings.assign_on_reply).toBe(false);
    expect((await reply(desk, a.headers, afterOff!)).status).toBe(201);
    await desk.consumers.drain();
    expect(await assigneesOf(desk, [afterOff!])).toEqual([null]);
    const bad = await desk.api("PATCH", "/v1/workspace", {
      headers: owner.headers,
      body: { settings: { assign_on_reply: "yes" } },
    });
    expect(bad.status).toBe(422);
    expect(bad.body.errors[0].location).toBe("body.settings.assign_on_reply");
  });

  test("an automation's reply does not take the ticket", async () => {
    const { owner } = await createWorkspaceWithOwner(desk);
    const rule = await desk.api("POST", "/v1/automations", {
      headers: owner.headers,
      body: {
        name: "Acknowledge",
        trigger: "ticket_created",
        conditions: [],
        actions: [{ type: "send_reply", value: "<p>Thanks, we are on it.</p>" }],
      },
    });
    expect(rule.status).toBe(201);
    const [ticket] = await created(desk, owner, 1, { body_html: "<p>Hello</p>", kind: "note" });
    await desk.consumers.drain();
    const messages = await desk.api("GET", `/v1/tickets/${ticket}/messages`, { headers: owner.headers });
    expect(messages.body.data.filter((m: { kind: string }) => m.kind === "reply").length).toBe(1);
    expect(await assigneesOf(desk, [ticket!])).toEqual([null]);
  });
});

test("the first message of a ticket an agent creates does not take it: the creator chose its assignee", async () => {
  const { workspace } = await createWorkspaceWithOwner(desk);
  const a = await addMember(desk, workspace.id, "agent");
  const [ticket] = await created(desk, a, 1, { body_html: "<p>We noticed a problem with your order.</p>" });
  expect(await assigneesOf(desk, [ticket!])).toEqual([null]);
});
