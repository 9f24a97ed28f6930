import { first } from "../db/store";
import { describe, expect, test } from "bun:test";
import { and, asc, eq, gt } from "drizzle-orm";
import { events } from "../events/events.table";
import { jobs } from "../jobs/jobs.table";
import { manualClock } from "../lib/clock";
import { activities, tickets } from "../tickets/tickets.table";
import { startTestDesk, type TestDesk } from "../../test/harness";
import { ALL_SCOPES, addMember, createKey, createWorkspaceWithOwner, type Member } from "../../test/factories";
import { autoCloseDueTickets } from "./lifecycle.jobs";
import { lastSeq } from "../../test/kit/events";

const DAY = 24 * 3600 * 1000;
const clock = manualClock(new Date());
/** Sessions are minted at real time and expire by the desk's clock, so each test starts at now. */
const restart = () => clock.set(new Date());
const desk: TestDesk = await startTestDesk({ clock });

const eventsAfter = async (wid: string, seq: number) =>
  await desk.deps.db
    .select()
    .from(events)
    .where(and(eq(events.workspaceId, wid), gt(events.seq, seq)))
    .orderBy(asc(events.seq));
const statusOf = async (id: string) =>
  first(await desk.deps.db.select().from(tickets).where(eq(tickets.id, id)).limit(1))!.status;

/** Through an API key, whose credential does not expire as the clock moves on. */
async function solvedTicket(owner: Member, status = "solved") {
  const headers = (await createKey(desk, owner, ALL_SCOPES)).headers;
  const res = await desk.api("POST", "/v1/tickets", { headers, body: { subject: "Done soon" } });
  expect(res.status).toBe(201);
  const patched = await desk.api("PATCH", `/v1/tickets/${res.body.id}`, { headers, body: { status } });
  expect(patched.status).toBe(200);
  return res.body.id as string;
}

describe("auto-close of solved tickets", () => {
  test("closes after auto_close_days (default 4) with status_changed and ticket.updated, required fields notwithstanding", async () => {
    restart();
    const { workspace, owner } = await createWorkspaceWithOwner(desk);
    const key = (await createKey(desk, owner, ALL_SCOPES)).headers;
    const early = await solvedTicket(owner);
    clock.advance(DAY);
    const later = await solvedTicket(owner);
    const open = (await desk.api("POST", "/v1/tickets", { headers: key, body: { subject: "Still open" } })).body
      .id as string;
    // A field made required after the solve does not block auto-close.
    const field = await desk.api("POST", "/v1/custom-fields", {
      headers: key,
      body: { entity: "ticket", key: "root_cause", name: "Root cause", type: "text", required_on_solve: true },
    });
    expect(field.status).toBe(201);
    // An agent could not solve it now without the field: auto-close is not an agent.
    const refused = await desk.api("PATCH", `/v1/tickets/${open}`, { headers: key, body: { status: "solved" } });
    expect(refused.body.code).toBe("field_required");

    clock.advance(3 * DAY - 60_000); // early: 4 days minus a minute
    expect(await autoCloseDueTickets(desk.deps)).toBe(0);
    expect(await statusOf(early)).toBe("solved");

    clock.advance(120_000);
    const seq = await lastSeq(desk, workspace.id);
    expect(await autoCloseDueTickets(desk.deps)).toBe(1);
    expect(await statusOf(early)).toBe("closed");
    expect(await statusOf(later)).toBe("solved");
    expect(await statusOf(open)).toBe("open");
    const emitted = await eventsAfter(workspace.id, seq);
    expect(emitted.map((e) => e.type)).toEqual(["activity.created", "ticket.updated"]);
    expect(emitted[1]!.data).toMatchObject({ changes: ["status"], ticket: { id: early, status: "closed" } });
    const activity = (
      await desk.deps.db
        .select()
        .from(activities)
        .where(and(eq(activities.ticketId, early), eq(activities.type, "status_changed")))
        .orderBy(asc(activities.createdAt))
    ).at(-1)!;
    expect(activity.data).toEqual({ from: "solved", to: "closed", reason: "auto_close" });
    expect(activity.actorType).toBe("system");
    // solved_at stays: it is when the ticket was solved.
    expect(
      first(await desk.deps.db.select().from(tickets).where(eq(tickets.id, early)).limit(1))!.solvedAt,
    ).not.toBeNull();

    // The next pass finds nothing new until `later` is due.
    expect(await autoCloseDueTickets(desk.deps)).toBe(0);
    clock.advance(DAY);
    expect(await autoCloseDueTickets(desk.deps)).toBe(1);
    expect(await statusOf(later)).toBe("closed");
  });

  test("auto_close_days 0 never closes; 1 closes after a day; a reopened ticket is not closed", async () => {
    restart();
    const never = await createWorkspaceWithOwner(desk);
    const fast = await createWorkspaceWithOwner(desk);
    for (const [w, days] of [
      [never, 0],
      [fast, 1],
    ] as const) {
      const res = await desk.api("PATCH", "/v1/workspace", {
        headers: w.owner.headers,
        body: { settings: { auto_close_days: days } },
      });
      expect(res.status).toBe(200);
      expect(res.body.settings.auto_close_days).toBe(days);
    }
    const kept = await solvedTicket(never.owner);
    const closes = await solvedTicket(fast.owner);
    const reopened = await solvedTicket(fast.owner);
    await desk.api("PATCH", `/v1/tickets/${reopened}`, {
      headers: (await createKey(desk, fast.owner, ALL_SCOPES)).headers,
      body: { status: "open" },
    });
    clock.advance(DAY + 1000);
    await autoCloseDueTickets(desk.deps);
    expect(await statusOf(closes)).toBe("closed");
    expect(await statusOf(reopened)).toBe("open");
    clock.advance(400 * DAY);
    await autoCloseDueTickets(desk.deps);
    expect(await statusOf(kept)).toBe("solved");
  });

  test("the setting is validated and admin-only; the scheduled job runs the pass", async () => {
    restart();
    const { workspace, owner } = await createWorkspaceWithOwner(desk);
    const agent = await addMember(desk, workspace.id, "agent");
    for (const value of [-1, 366, 1.5, "4"]) {
      const res = await desk.api("PATCH", "/v1/workspace", {
        headers: owner.headers,
        body: { settings: { auto_close_days: value } },
      });
      expect(res.status).toBe(422);
      expect(res.body.errors[0].location).toBe("body.settings.auto_close_days");
    }
    expect(
      (await desk.api("PATCH", "/v1/workspace", { headers: agent.headers, body: { settings: { auto_close_days: 2 } } }))
        .status,
    ).toBe(403);
    expect((await desk.api("PATCH", "/v1/workspace", { body: { settings: { auto_close_days: 2 } } })).status).toBe(401);

    const due = await solvedTicket(owner);
    clock.advance(5 * DAY);
    // The scheduler keeps one run queued; once its time has come, a drain runs it.
    const queued = await desk.deps.db.select().from(jobs).where(eq(jobs.kind, "tickets.auto-close"));
    expect(queued.length).toBeGreaterThan(0);
    await desk.jobs.drain();
    expect(await statusOf(due)).toBe("closed");
  });
});
