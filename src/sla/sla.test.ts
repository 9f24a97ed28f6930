import { first } from "../db/store";
import { describe, expect, test } from "bun:test";
import { and, eq } from "drizzle-orm";
import { auditLogs } from "../audit/audit.table";
import { manualClock } from "../lib/clock";
import { notificationsOf } from "../notifications/notifications.public";
import { eventsAfter, newTicket } from "../../test/kit/tickets";
import { ALL_SCOPES, addMember, createKey, createWorkspaceWithOwner, type Member } from "../../test/factories";
import { startTestDesk } from "../../test/harness";
import { breachPass } from "./sla.track";
import { slaClocks } from "./sla.table";
import { lastSeq } from "../../test/kit/events";

// Friday 2026-01-09 16:00 UTC.
const clock = manualClock(new Date("2026-01-09T16:00:00.000Z"));
const desk = await startTestDesk({ clock });
const MINUTE = 60_000;

const policy = async (owner: Member, body: Record<string, unknown>) => {
  const res = await desk.api("POST", "/v1/sla-policies", {
    headers: owner.headers,
    body: { name: "Default", first_response_minutes: 60, resolution_minutes: 480, ...body },
  });
  if (res.status !== 201) throw new Error(`policy not created: ${res.status} ${res.text}`);
  return res.body as { id: string; position: number };
};
const settle = async () => {
  await desk.jobs.drain();
  await desk.consumers.drain();
  await desk.jobs.drain();
};
const ticketOf = async (member: Member, id: string) =>
  (await desk.api("GET", `/v1/tickets/${id}`, { headers: member.headers })).body;
const breaches = async (member: Member, id: string) => {
  const r = await desk.api("GET", `/v1/tickets/${id}/activities`, { headers: member.headers });
  if (r.status !== 200) throw new Error(r.text);
  return r.body.data
    .filter((a: { type: string }) => a.type === "sla_breached")
    .map((a: { data: { kind: string } }) => a.data.kind);
};
const at = (iso: string) => clock.set(new Date(iso));
/** The owner through an API key: sessions expire when the clock moves past 15 minutes, keys do not. */
const workspaceAsKey = async () => {
  const { workspace, owner: person } = await createWorkspaceWithOwner(desk);
  return { workspace, person, owner: { ...person, headers: (await createKey(desk, person, ALL_SCOPES)).headers } };
};

describe("SLA policies", () => {
  test("CRUD by position, audit and events; settings access; tenancy; 422 at the field", async () => {
    at("2026-01-09T16:00:00.000Z");
    const { workspace, owner } = await createWorkspaceWithOwner(desk);
    const agent = await addMember(desk, workspace.id, "agent");
    const seq = await lastSeq(desk, workspace.id);

    const urgent = await policy(owner, { name: "Urgent", priority: "urgent", first_response_minutes: 15 });
    const any = await policy(owner, { name: "Any" });
    expect(urgent).toMatchObject({ position: 0, priority: "urgent", business_hours: false, enabled: true });
    expect(any).toMatchObject({ position: 1, priority: null });
    const moved = await desk.api("PATCH", `/v1/sla-policies/${any.id}`, {
      headers: owner.headers,
      body: { position: 0, name: "Anything", business_hours: true },
    });
    expect(moved.body).toMatchObject({ name: "Anything", position: 0, business_hours: true });
    const list = await desk.api("GET", "/v1/sla-policies", { headers: owner.headers });
    expect(list.body.data.map((p: { name: string; position: number }) => [p.name, p.position])).toEqual([
      ["Anything", 0],
      ["Urgent", 1],
    ]);
    expect((await desk.api("DELETE", `/v1/sla-policies/${urgent.id}`, { headers: owner.headers })).status).toBe(204);
    expect((await desk.api("GET", `/v1/sla-policies/${urgent.id}`, { headers: owner.headers })).status).toBe(404);

    expect((await eventsAfter(desk, workspace.id, seq)).map((e) => e.type)).toEqual([
      "sla_policy.created",
      "sla_policy.created",
      "sla_policy.updated", // Urgent moved down to make room
      "sla_policy.updated",
      "sla_policy.deleted",
    ]);
    const audit = (
      await desk.deps.db
        .select({ action: auditLogs.action })
        .from(auditLogs)
        .where(and(eq(auditLogs.workspaceId, workspace.id), eq(auditLogs.entityType, "sla_policy")))
    ).map((r) => r.action);
    expect(audit.sort()).toEqual([
      "sla_policy.created",
      "sla_policy.created",
      "sla_policy.deleted",
      "sla_policy.updated",
    ]);

    // 401 without a credential, 403 for an agent and for a key without settings scopes.
    expect((await desk.api("GET", "/v1/sla-policies")).status).toBe(401);
    expect((await desk.api("GET", "/v1/sla-policies", { headers: agent.headers })).status).toBe(403);
    const reader = await createKey(desk, owner, ["tickets:read", "settings:read"]);
    expect((await desk.api("GET", "/v1/sla-policies", { headers: reader.headers })).status).toBe(200);
    expect((await desk.api("POST", "/v1/sla-policies", { headers: reader.headers, body: { name: "x" } })).status).toBe(
      403,
    );
    expect(
      (await desk.api("PATCH", `/v1/sla-policies/${any.id}`, { headers: agent.headers, body: { name: "x" } })).status,
    ).toBe(403);

    // Another workspace's policy is missing there.
    const other = await createWorkspaceWithOwner(desk);
    for (const [method, body] of [
      ["GET", undefined],
      ["PATCH", { name: "x" }],
      ["DELETE", undefined],
    ] as const) {
      expect(
        (await desk.api(method, `/v1/sla-policies/${any.id}`, { headers: other.owner.headers, body })).status,
      ).toBe(404);
    }
    expect((await desk.api("GET", "/v1/sla-policies", { headers: other.owner.headers })).body.data).toEqual([]);

    // Bad input names the field; nothing is stored.
    for (const [body, location] of [
      [{ name: "", first_response_minutes: 1, resolution_minutes: 1 }, "body.name"],
      [{ name: "x", first_response_minutes: 0, resolution_minutes: 1 }, "body.first_response_minutes"],
      [{ name: "x", first_response_minutes: 1, resolution_minutes: 1.5 }, "body.resolution_minutes"],
      [{ name: "x", first_response_minutes: 1, resolution_minutes: 1, priority: "asap" }, "body.priority"],
      [{ name: "x", first_response_minutes: 1, resolution_minutes: 1, position: -1 }, "body.position"],
      [{ name: "x", first_response_minutes: 1, resolution_minutes: 1, color: "red" }, "body"],
    ] as const) {
      const res = await desk.api("POST", "/v1/sla-policies", { headers: owner.headers, body });
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body.code).toBe("validation_failed");
      expect(res.body.errors.map((e: { location: string }) => e.location)).toContain(location);
    }
    const bad = await desk.api("PATCH", `/v1/sla-policies/${any.id}`, {
      headers: owner.headers,
      body: { resolution_minutes: 600_000 },
    });
    expect(bad.body.errors[0].location).toBe("body.resolution_minutes");
    expect((await desk.api("GET", "/v1/sla-policies", { headers: owner.headers })).body.data.length).toBe(1);
  });
});

describe("business hours", () => {
  const week = {
    mon: [{ start: "09:00", end: "17:00" }],
    tue: [{ start: "09:00", end: "17:00" }],
    wed: [{ start: "09:00", end: "17:00" }],
    thu: [{ start: "09:00", end: "17:00" }],
    fri: [{ start: "09:00", end: "17:00" }],
    sat: [],
    sun: [],
  };

  test("GET reads the defaults; PUT replaces everything, audit-logged; every rule answers 422 at its field", async () => {
    const { workspace, owner } = await createWorkspaceWithOwner(desk);
    const viewer = await addMember(desk, workspace.id, "viewer");
    const agent = await addMember(desk, workspace.id, "agent");
    const initial = await desk.api("GET", "/v1/business-hours", { headers: viewer.headers });
    expect(initial.body).toMatchObject({ enabled: false, timezone: "UTC", holidays: [] });
    expect(initial.body.schedule.mon).toEqual([{ start: "09:00", end: "17:00" }]);

    const body = {
      enabled: true,
      timezone: "Europe/Paris",
      schedule: {
        ...week,
        mon: [
          { start: "13:00", end: "18:00" },
          { start: "08:00", end: "12:00" },
        ],
        sat: [{ start: "22:00", end: "24:00" }],
      },
      holidays: [{ date: "2026-12-25", name: "Christmas" }],
    };
    const put = await desk.api("PUT", "/v1/business-hours", { headers: owner.headers, body });
    expect(put.status).toBe(200);
    expect(put.body.schedule.mon).toEqual([
      { start: "08:00", end: "12:00" },
      { start: "13:00", end: "18:00" },
    ]);
    expect((await desk.api("GET", "/v1/business-hours", { headers: agent.headers })).body).toEqual(put.body);
    const audit = await desk.deps.db
      .select()
      .from(auditLogs)
      .where(and(eq(auditLogs.workspaceId, workspace.id), eq(auditLogs.action, "business_hours.updated")));
    expect(audit.length).toBe(1);

    expect((await desk.api("GET", "/v1/business-hours")).status).toBe(401);
    expect((await desk.api("PUT", "/v1/business-hours", { headers: agent.headers, body })).status).toBe(403);
    const key = await createKey(desk, owner, ["settings:read"]);
    expect((await desk.api("GET", "/v1/business-hours", { headers: key.headers })).status).toBe(200);
    expect((await desk.api("PUT", "/v1/business-hours", { headers: key.headers, body })).status).toBe(403);
    // Another workspace has its own.
    const other = await createWorkspaceWithOwner(desk);
    expect((await desk.api("GET", "/v1/business-hours", { headers: other.owner.headers })).body.enabled).toBe(false);

    const holidays = Array.from({ length: 101 }, (_, i) => ({
      date: new Date(Date.UTC(2027, 0, 1 + i)).toISOString().slice(0, 10),
      name: `Day ${i}`,
    }));
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ timezone: "Mars/Olympus" }, "body.timezone"],
      [{ schedule: { ...week, mon: [{ start: "09:10", end: "17:00" }] } }, "body.schedule.mon.0.start"],
      [{ schedule: { ...week, tue: [{ start: "09:00", end: "24:15" }] } }, "body.schedule.tue.0.end"],
      [{ schedule: { ...week, wed: [{ start: "17:00", end: "09:00" }] } }, "body.schedule.wed.0.end"],
      [{ schedule: { ...week, thu: [{ start: "24:00", end: "24:00" }] } }, "body.schedule.thu.0.start"],
      [
        {
          schedule: {
            ...week,
            fri: [
              { start: "09:00", end: "12:00" },
              { start: "11:00", end: "13:00" },
            ],
          },
        },
        "body.schedule.fri.1.start",
      ],
      [
        {
          schedule: {
            ...week,
            sat: [
              { start: "01:00", end: "02:00" },
              { start: "03:00", end: "04:00" },
              { start: "05:00", end: "06:00" },
              { start: "07:00", end: "08:00" },
            ],
          },
        },
        "body.schedule.sat",
      ],
      [{ schedule: { ...week, sun: undefined } }, "body.schedule.sun"],
      [{ holidays }, "body.holidays"],
      [{ holidays: [{ date: "2026-02-30", name: "x" }] }, "body.holidays.0.date"],
      [
        {
          holidays: [
            { date: "2026-05-01", name: "a" },
            { date: "2026-05-01", name: "b" },
          ],
        },
        "body.holidays.1.date",
      ],
      [{ holidays: [{ date: "2026-05-01", name: "" }] }, "body.holidays.0.name"],
    ];
    for (const [change, location] of cases) {
      const res = await desk.api("PUT", "/v1/business-hours", { headers: owner.headers, body: { ...body, ...change } });
      expect(res.status, location).toBe(422);
      expect(res.body.code).toBe("validation_failed");
      expect(
        res.body.errors.map((e: { location: string }) => e.location),
        location,
      ).toContain(location);
    }
    // 100 holidays are fine.
    const ok = await desk.api("PUT", "/v1/business-hours", {
      headers: owner.headers,
      body: { ...body, holidays: holidays.slice(0, 100) },
    });
    expect(ok.status).toBe(200);
    expect(ok.body.holidays.length).toBe(100);
  });
});

describe("the SLA clock of a ticket", () => {
  test("business minutes across a weekend and a holiday; recomputed when business hours change", async () => {
    at("2026-01-09T16:00:00.000Z"); // Friday 16:00 UTC
    const { owner } = await workspaceAsKey();
    await desk.api("PUT", "/v1/business-hours", {
      headers: owner.headers,
      body: {
        enabled: true,
        timezone: "UTC",
        schedule: {
          mon: [{ start: "09:00", end: "17:00" }],
          tue: [{ start: "09:00", end: "17:00" }],
          wed: [{ start: "09:00", end: "17:00" }],
          thu: [{ start: "09:00", end: "17:00" }],
          fri: [{ start: "09:00", end: "17:00" }],
          sat: [],
          sun: [],
        },
        holidays: [{ date: "2026-01-12", name: "Closed Monday" }],
      },
    });
    const p = await policy(owner, { business_hours: true, first_response_minutes: 120, resolution_minutes: 600 });
    const ticket = await newTicket(desk, owner);
    await settle();
    // 1 hour on Friday, Monday is a holiday, 1 more hour on Tuesday; resolution: 1 h Friday + 9 h (8 Tuesday, 1 Wednesday).
    expect((await ticketOf(owner, ticket.id)).sla).toEqual({
      policy_id: p.id,
      first_response_due_at: "2026-01-13T10:00:00.000Z",
      resolution_due_at: "2026-01-14T10:00:00.000Z",
      breached: false,
    });

    // Business hours now in New York (UTC-5 in January), no holiday: recomputed by the job.
    const hours = (await desk.api("GET", "/v1/business-hours", { headers: owner.headers })).body;
    await desk.api("PUT", "/v1/business-hours", {
      headers: owner.headers,
      body: { ...hours, timezone: "America/New_York", holidays: [] },
    });
    await settle();
    // Friday 16:00 UTC = 11:00 New York: 120 minutes end at 13:00 New York (18:00 UTC).
    expect((await ticketOf(owner, ticket.id)).sla.first_response_due_at).toBe("2026-01-09T18:00:00.000Z");
  });

  test("business minutes across a DST change", async () => {
    at("2026-03-06T21:00:00.000Z"); // Friday 16:00 in New York (EST)
    const { owner } = await workspaceAsKey();
    const nine = [{ start: "09:00", end: "17:00" }];
    await desk.api("PUT", "/v1/business-hours", {
      headers: owner.headers,
      body: {
        enabled: true,
        timezone: "America/New_York",
        schedule: { mon: nine, tue: nine, wed: nine, thu: nine, fri: nine, sat: [], sun: [] },
        holidays: [],
      },
    });
    await policy(owner, { business_hours: true, first_response_minutes: 120, resolution_minutes: 600 });
    const ticket = await newTicket(desk, owner);
    await settle();
    // Clocks go forward on Sunday 2026-03-08: Monday 10:00 EDT is 14:00 UTC (it would be 15:00 in EST).
    expect((await ticketOf(owner, ticket.id)).sla.first_response_due_at).toBe("2026-03-09T14:00:00.000Z");
  });

  test("recomputed on priority change, first agent reply, solve, reopen and policy change", async () => {
    at("2026-02-02T10:00:00.000Z");
    const { workspace, owner } = await workspaceAsKey();
    const normal = await policy(owner, { name: "Normal", priority: "normal", first_response_minutes: 60 });
    const urgent = await policy(owner, {
      name: "Urgent",
      priority: "urgent",
      first_response_minutes: 10,
      resolution_minutes: 120,
    });
    const ticket = await newTicket(desk, owner, { contact: { email: "c@example.test" } });
    await settle();
    expect((await ticketOf(owner, ticket.id)).sla).toEqual({
      policy_id: normal.id,
      first_response_due_at: "2026-02-02T11:00:00.000Z",
      resolution_due_at: "2026-02-02T18:00:00.000Z",
      breached: false,
    });

    // Priority: the urgent policy applies, from the ticket's creation.
    clock.advance(5 * MINUTE);
    await desk.api("PATCH", `/v1/tickets/${ticket.id}`, { headers: owner.headers, body: { priority: "urgent" } });
    const seq = await lastSeq(desk, workspace.id);
    await settle();
    expect((await ticketOf(owner, ticket.id)).sla).toMatchObject({
      policy_id: urgent.id,
      first_response_due_at: "2026-02-02T10:10:00.000Z",
      resolution_due_at: "2026-02-02T12:00:00.000Z",
    });
    // The recompute is a ticket.updated naming sla (and nothing reacts to it again).
    const updates = (await eventsAfter(desk, workspace.id, seq)).filter((e) => e.type === "ticket.updated");
    expect(updates.map((e) => e.data.changes)).toEqual([["sla"]]);
    expect(
      first(await desk.deps.db.select().from(slaClocks).where(eq(slaClocks.ticketId, ticket.id)).limit(1))?.nextDueAt,
    ).toBe("2026-02-02T10:10:00.000Z");

    // First agent reply: the first-response deadline is met; the next one pending is the resolution.
    clock.advance(2 * MINUTE);
    await desk.api("POST", `/v1/tickets/${ticket.id}/messages`, {
      headers: owner.headers,
      body: { kind: "reply", body_html: "<p>On it</p>" },
    });
    await settle();
    expect(
      first(await desk.deps.db.select().from(slaClocks).where(eq(slaClocks.ticketId, ticket.id)).limit(1))?.nextDueAt,
    ).toBe("2026-02-02T12:00:00.000Z");
    at("2026-02-02T10:30:00.000Z");
    expect(await breachPass(desk.deps)).toBe(0);

    // Solve: nothing pending; past the resolution deadline nothing is breached.
    const solvedRes = await desk.api("PATCH", `/v1/tickets/${ticket.id}`, {
      headers: owner.headers,
      body: { status: "solved" },
    });
    expect(solvedRes.status, solvedRes.text).toBe(200);
    await settle();
    expect(
      first(await desk.deps.db.select().from(slaClocks).where(eq(slaClocks.ticketId, ticket.id)).limit(1))?.nextDueAt,
    ).toBeNull();
    at("2026-02-02T13:00:00.000Z");
    expect(await breachPass(desk.deps)).toBe(0);

    // Reopen: the resolution clock starts again from the reopening.
    await desk.api("PATCH", `/v1/tickets/${ticket.id}`, { headers: owner.headers, body: { status: "open" } });
    await settle();
    expect((await ticketOf(owner, ticket.id)).sla.resolution_due_at).toBe("2026-02-02T15:00:00.000Z");

    // Policy change: a new target applies to the unsolved ticket (from the reopening).
    await desk.api("PATCH", `/v1/sla-policies/${urgent.id}`, {
      headers: owner.headers,
      body: { resolution_minutes: 30 },
    });
    await settle();
    expect((await ticketOf(owner, ticket.id)).sla.resolution_due_at).toBe("2026-02-02T13:30:00.000Z");
    // Disabled: the next matching policy (none for urgent) — the ticket has no SLA any more.
    await desk.api("PATCH", `/v1/sla-policies/${urgent.id}`, { headers: owner.headers, body: { enabled: false } });
    await settle();
    expect((await ticketOf(owner, ticket.id)).sla).toBeNull();
    expect(
      first(await desk.deps.db.select().from(slaClocks).where(eq(slaClocks.ticketId, ticket.id)).limit(1)),
    ).toBeUndefined();
  });

  test("a breach is recorded once per deadline: activity, ticket.updated, notification to the assignee or the admins", async () => {
    at("2026-04-01T08:00:00.000Z");
    const { workspace, owner } = await workspaceAsKey();
    const admin = await addMember(desk, workspace.id, "admin");
    const agent = await addMember(desk, workspace.id, "agent");
    const other = await addMember(desk, workspace.id, "agent");
    await policy(owner, { first_response_minutes: 30, resolution_minutes: 90 });
    const assigned = await newTicket(desk, owner, { assignee_id: agent.id });
    const unassigned = await newTicket(desk, owner);
    await settle();
    const seq = await lastSeq(desk, workspace.id);

    // Past the first-response deadline: the scheduled job records it.
    at("2026-04-01T08:31:00.000Z");
    await settle();
    expect(await breaches(owner, assigned.id)).toEqual(["first_response"]);
    expect(await breaches(owner, unassigned.id)).toEqual(["first_response"]);
    expect((await ticketOf(owner, assigned.id)).sla.breached).toBe(true);
    const emitted = await eventsAfter(desk, workspace.id, seq);
    const updated = emitted.filter((e) => e.type === "ticket.updated");
    expect(updated.length).toBe(2);
    expect(updated.every((e) => (e.data.changes as string[]).join() === "sla")).toBe(true);
    expect(emitted.filter((e) => e.type === "activity.created").length).toBe(2);

    const notes = async (member: Member) =>
      (await notificationsOf(desk.deps.db as never, workspace.id, member.id, ["sla_breached"])).map((n) => ({
        ticket: n.ticket?.id,
        data: n.data,
      }));
    expect(await notes(agent)).toEqual([
      { ticket: assigned.id, data: { kind: "first_response", due_at: "2026-04-01T08:30:00.000Z" } },
    ]);
    for (const boss of [owner, admin])
      expect(await notes(boss)).toEqual([
        { ticket: unassigned.id, data: { kind: "first_response", due_at: "2026-04-01T08:30:00.000Z" } },
      ]);
    expect(await notes(other)).toEqual([]);

    // Later runs record nothing new for that deadline; the resolution one is its own breach, once.
    at("2026-04-01T08:45:00.000Z");
    await settle();
    expect(await breachPass(desk.deps)).toBe(0);
    at("2026-04-01T09:31:00.000Z");
    await settle();
    at("2026-04-01T10:31:00.000Z");
    await settle();
    expect(await breaches(owner, assigned.id)).toEqual(["first_response", "resolution"]);
    expect((await notes(agent)).length).toBe(2);
    expect(
      first(await desk.deps.db.select().from(slaClocks).where(eq(slaClocks.ticketId, assigned.id)).limit(1))?.nextDueAt,
    ).toBeNull();

    // A priority change keeps the record: breached stays true.
    await desk.api("PATCH", `/v1/tickets/${assigned.id}`, { headers: owner.headers, body: { priority: "high" } });
    await settle();
    expect((await ticketOf(owner, assigned.id)).sla.breached).toBe(true);

    // Reports count the breached tickets.
    const report = await desk.api("GET", "/v1/reports/overview?from=2026-04-01&to=2026-04-02", {
      headers: owner.headers,
    });
    expect(report.body.sla_breached).toBe(2);
  });

  test("a deleted ticket forgets its clock; sort=due lists the nearest deadline first", async () => {
    at("2026-05-04T09:00:00.000Z");
    const { owner } = await workspaceAsKey();
    await policy(owner, { name: "Urgent", priority: "urgent", first_response_minutes: 10 });
    await policy(owner, { name: "High", priority: "high", first_response_minutes: 30 });
    const none = await newTicket(desk, owner, { subject: "no policy", priority: "low" });
    const high = await newTicket(desk, owner, { subject: "high", priority: "high" });
    const urgent = await newTicket(desk, owner, { subject: "urgent", priority: "urgent" });
    await settle();
    const sorted = await desk.api("GET", "/v1/tickets?sort=due", { headers: owner.headers });
    expect(sorted.body.data.map((t: { id: string }) => t.id)).toEqual([urgent.id, high.id, none.id]);
    expect((await ticketOf(owner, none.id)).sla).toBeNull();

    await desk.api("DELETE", `/v1/tickets/${urgent.id}`, { headers: owner.headers });
    await settle();
    expect(
      first(await desk.deps.db.select().from(slaClocks).where(eq(slaClocks.ticketId, urgent.id)).limit(1)),
    ).toBeUndefined();
    at("2026-05-04T12:00:00.000Z");
    expect(await breachPass(desk.deps)).toBe(1);
  });
});
