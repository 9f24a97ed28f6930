import { describe, expect, test } from "bun:test";
import { systemContext } from "../auth/context";
import { manualClock } from "../lib/clock";
import { breachPass } from "../sla/sla.track";
import { addMessage, createTicket } from "../tickets/tickets.public";
import { newTeam, newTicket } from "../../test/kit/tickets";
import { ALL_SCOPES, addMember, createKey, createWorkspaceWithOwner, type Member } from "../../test/factories";
import { startTestDesk } from "../../test/harness";
import { timeRulesPass } from "./automations.time-rules";

const clock = manualClock(new Date("2026-03-02T09:00:00.000Z"));
// No job runner: its scheduled pass of the time rules would race the passes each test counts (on
// PostgreSQL, real time passes between a test's queries, and the runner's timers fire meanwhile).
const desk = await startTestDesk({ clock, env: { DESK_JOBS: "off" } });
const HOUR = 3_600_000;
const MINUTE = 60_000;

/** The owner through an API key: sessions expire when the clock moves, keys do not. */
async function workspace() {
  const { workspace, owner: person } = await createWorkspaceWithOwner(desk);
  const owner: Member = { ...person, headers: (await createKey(desk, person, ALL_SCOPES)).headers };
  return { workspace, person, owner };
}

async function rule(owner: Member, body: Record<string, unknown>) {
  const res = await desk.api("POST", "/v1/automations", {
    headers: owner.headers,
    body: { name: `T ${crypto.randomUUID().slice(0, 6)}`, trigger: "time", ...body },
  });
  if (res.status !== 201) throw new Error(`automation not created: ${res.status} ${res.text}`);
  return res.body as { id: string; conditions: Array<{ value: unknown }> };
}

type Run = {
  ticket_id: string;
  trigger: string;
  event_id: string;
  matched: Array<{ field: string; op: string; value: unknown; actual: unknown }>;
  notes: Array<{ type: string; result: string }>;
};
const runsOf = async (owner: Member, id: string) =>
  (await desk.api("GET", `/v1/automations/${id}/runs`, { headers: owner.headers })).body.data as Run[];
const ticketOf = async (owner: Member, id: string) =>
  (await desk.api("GET", `/v1/tickets/${id}`, { headers: owner.headers })).body;
const messagesOf = async (owner: Member, id: string) =>
  (await desk.api("GET", `/v1/tickets/${id}/messages`, { headers: owner.headers })).body.data as Array<{
    body_text: string;
  }>;
// Consumers only: draining jobs would also run the scheduled pass, and each test counts its own passes.
const settle = () => desk.consumers.drain();
/** One pass after the events so far were handled; answers how many tickets it acted on. */
const pass = async () => {
  await settle();
  const figures = await timeRulesPass(desk.deps);
  await settle();
  return figures.applied;
};

describe("time rules: save-time checks", () => {
  test("time conditions, their numbers and what a time rule may combine them with answer 422 at the location", async () => {
    const { owner } = await workspace();
    const bad: Array<[Record<string, unknown>, string]> = [
      [{ conditions: [{ field: "status", op: "equals", value: "open" }] }, "body.conditions"],
      [{ conditions: [{ field: "hours_since_created", op: "gt", value: -1 }] }, "body.conditions.0.value"],
      [{ conditions: [{ field: "hours_since_created", op: "gt", value: "" }] }, "body.conditions.0.value"],
      [{ conditions: [{ field: "hours_since_created", op: "gt", value: "soon" }] }, "body.conditions.0.value"],
      [{ conditions: [{ field: "hours_since_agent_message", op: "equals", value: 3 }] }, "body.conditions.0.op"],
      [{ conditions: [{ field: "sla", op: "late", value: "" }] }, "body.conditions.0.op"],
      [{ conditions: [{ field: "sla", op: "due_within_minutes", value: "" }] }, "body.conditions.0.value"],
      [{ conditions: [{ field: "sla", op: "due_within_minutes", value: -5 }] }, "body.conditions.0.value"],
      [
        {
          conditions: [
            { field: "hours_since_created", op: "gt", value: 1 },
            { field: "ai_decide", op: "gt", value: 0.5, question: "Is it angry?" },
          ],
        },
        "body.conditions.1.field",
      ],
      [{ conditions: [{ field: "hours_since_snoozed", op: "gt", value: 1 }] }, "body.conditions.0.field"],
      [
        { trigger: "ticket_created", conditions: [{ field: "hours_since_created", op: "gt", value: 1 }] },
        "body.conditions.0.field",
      ],
    ];
    for (const [body, location] of bad) {
      const res = await desk.api("POST", "/v1/automations", {
        headers: owner.headers,
        body: { name: "Bad", trigger: "time", actions: [{ type: "add_tag", value: "x" }], ...body },
      });
      expect({ body, status: res.status }).toEqual({ body, status: 422 });
      expect(res.body.errors.map((e: { location: string }) => e.location)).toContain(location);
    }
    const good = await rule(owner, {
      conditions: [
        { field: "hours_since_status_changed", op: "gt", value: "72" },
        { field: "sla", op: "due_within_minutes", value: 30 },
        { field: "status", op: "equals", value: "pending" },
      ],
      actions: [{ type: "add_tag", value: "late" }],
    });
    expect(good.conditions.map((c) => c.value)).toEqual([72, 30, "pending"]);
    // Turning it into an event rule keeps its time conditions: refused, at the conditions.
    const retrigger = await desk.api("PATCH", `/v1/automations/${good.id}`, {
      headers: owner.headers,
      body: { trigger: "ticket_updated" },
    });
    expect(retrigger.status).toBe(422);
    expect(retrigger.body.errors[0].location).toBe("body.conditions.0.field");
  });
});

describe("time rules: passes", () => {
  test("pending 3 days → one reminder; not again until the ticket changes and the time passes again", async () => {
    const { owner } = await workspace();
    const reminder = await rule(owner, {
      name: "Pending reminder",
      conditions: [
        { field: "status", op: "equals", value: "pending" },
        { field: "hours_since_status_changed", op: "gt", value: 72 },
      ],
      actions: [
        { type: "send_reply", value: "<p>Any news on this?</p>" },
        { type: "add_tag", value: "reminded" },
      ],
    });
    // An event rule reacting to the reminder's change: its change is caused by the time rule, so it re-arms nothing.
    await desk.api("POST", "/v1/automations", {
      headers: owner.headers,
      body: {
        name: "Echo",
        trigger: "ticket_updated",
        conditions: [{ field: "tag", op: "equals", value: "reminded" }],
        actions: [{ type: "set_priority", value: "high" }],
      },
    });
    const ticket = await newTicket(desk, owner, { contact: { email: "pat@customer.test" } });
    await desk.api("PATCH", `/v1/tickets/${ticket.id}`, { headers: owner.headers, body: { status: "pending" } });
    clock.advance(71 * HOUR);
    expect(await pass()).toBe(0);
    clock.advance(2 * HOUR);
    expect(await pass()).toBe(1);
    const reminded = await ticketOf(owner, ticket.id);
    expect(reminded.tags.map((t: { name: string }) => t.name)).toEqual(["reminded"]);
    expect(reminded.priority).toBe("high");
    const reminders = async () =>
      (await messagesOf(owner, ticket.id)).filter((m) => m.body_text.includes("Any news")).length;
    expect(await reminders()).toBe(1);
    // The rule's own changes (and the echo rule's reaction to them) are no change of the ticket.
    clock.advance(5 * MINUTE);
    expect(await pass()).toBe(0);
    clock.advance(100 * HOUR);
    expect(await pass()).toBe(0);
    expect(await reminders()).toBe(1);

    // The customer answers (the ticket reopens), the agent waits on them again: 3 more days, one more reminder.
    clock.advance(MINUTE);
    await addMessage(
      systemContext(owner.workspaceId),
      ticket.id,
      { kind: "reply", body_text: "Still looking", direction: "inbound", author: { type: "contact" } },
      desk.deps,
    );
    await desk.api("PATCH", `/v1/tickets/${ticket.id}`, { headers: owner.headers, body: { status: "pending" } });
    clock.advance(5 * MINUTE);
    expect(await pass()).toBe(0);
    clock.advance(73 * HOUR);
    expect(await pass()).toBe(1);
    expect(await reminders()).toBe(2);

    // A change of anything by a person re-arms it: the status has been pending long enough, so it acts at once.
    clock.advance(MINUTE);
    await desk.api("PATCH", `/v1/tickets/${ticket.id}`, { headers: owner.headers, body: { priority: "low" } });
    expect(await pass()).toBe(1);
    expect(await pass()).toBe(0);

    const runs = await runsOf(owner, reminder.id);
    expect(runs.length).toBe(3);
    expect(runs.every((r) => r.trigger === "time" && r.event_id.startsWith("time:") && r.ticket_id === ticket.id)).toBe(
      true,
    );
    const why = runs.at(-1)!.matched;
    expect(why[0]).toEqual({ field: "status", op: "equals", value: "pending", actual: "pending" });
    expect(why[1]).toMatchObject({ field: "hours_since_status_changed", op: "gt", value: 72 });
    expect(why[1]!.actual as number).toBeGreaterThan(72);
    expect(runs.at(-1)!.notes.map((n) => `${n.type}:${n.result}`)).toEqual(["add_tag:applied", "send_reply:applied"]);
  });

  test("open and no agent reply for 4 h → urgent and a note for the team; a ticket an agent answered waits", async () => {
    const { owner, workspace: ws } = await workspace();
    const agent = await addMember(desk, ws.id, "agent");
    await rule(owner, {
      conditions: [
        { field: "status", op: "equals", value: "open" },
        { field: "hours_since_agent_message", op: "gt", value: 4 },
      ],
      actions: [
        { type: "set_priority", value: "urgent" },
        { type: "add_note", value: "<p>No answer for 4 hours: team, please pick this up.</p>" },
      ],
    });
    const ctx = systemContext(ws.id);
    const opened = async (subject: string) =>
      await createTicket(
        ctx,
        {
          subject,
          channel: "email",
          contact: { email: `c-${crypto.randomUUID().slice(0, 6)}@customer.test` },
          body_text: "Help",
          direction: "inbound",
          author: { type: "contact" },
        },
        desk.deps,
      );
    const waiting = await opened("Nobody answered");
    const answered = await opened("Answered");
    clock.advance(3 * HOUR);
    const reply = await desk.api("POST", `/v1/tickets/${answered.id}/messages`, {
      headers: { authorization: (await createKey(desk, agent, ALL_SCOPES)).headers.authorization },
      body: { kind: "reply", body_html: "<p>On it</p>", status: "open" },
    });
    expect(reply.status).toBe(201);
    expect(await pass()).toBe(0);
    clock.advance(90 * MINUTE);
    expect(await pass()).toBe(1);
    expect((await ticketOf(owner, waiting.id)).priority).toBe("urgent");
    expect((await ticketOf(owner, answered.id)).priority).toBe("normal");
    // Four hours after the agent's reply, the answered one is due too.
    clock.advance(3 * HOUR);
    expect(await pass()).toBe(1);
    expect((await ticketOf(owner, answered.id)).priority).toBe("urgent");
  });

  test("hours since the customer's message count their replies, not the agent's", async () => {
    const { owner, workspace: ws } = await workspace();
    await rule(owner, {
      conditions: [{ field: "hours_since_customer_message", op: "gt", value: 24 }],
      actions: [{ type: "add_tag", value: "quiet" }],
    });
    const ctx = systemContext(ws.id);
    const ticket = await createTicket(
      ctx,
      {
        subject: "Question",
        channel: "email",
        contact: { email: "quiet@customer.test" },
        body_text: "Hi",
        direction: "inbound",
        author: { type: "contact" },
      },
      desk.deps,
    );
    clock.advance(20 * HOUR);
    await addMessage(
      ctx,
      ticket.id,
      { kind: "reply", body_text: "Any update?", direction: "inbound", author: { type: "contact" } },
      desk.deps,
    );
    clock.advance(5 * HOUR);
    expect(await pass()).toBe(0);
    clock.advance(5 * HOUR);
    const reply = await desk.api("POST", `/v1/tickets/${ticket.id}/messages`, {
      headers: owner.headers,
      body: { kind: "reply", body_html: "<p>Looking</p>" },
    });
    expect(reply.status).toBe(201);
    clock.advance(15 * HOUR);
    expect(await pass()).toBe(1);
    expect((await ticketOf(owner, ticket.id)).tags.map((t: { name: string }) => t.name)).toEqual(["quiet"]);
  });

  test("SLA due within 30 minutes → assigned to the team lead; breached → tagged", async () => {
    const { owner, workspace: ws } = await workspace();
    const lead = await addMember(desk, ws.id, "agent");
    const policy = await desk.api("POST", "/v1/sla-policies", {
      headers: owner.headers,
      body: { name: "Default", first_response_minutes: 60, resolution_minutes: 480 },
    });
    expect(policy.status).toBe(201);
    const dueRule = await rule(owner, {
      conditions: [{ field: "sla", op: "due_within_minutes", value: 30 }],
      actions: [{ type: "assign_user", value: lead.id }],
    });
    await rule(owner, {
      conditions: [{ field: "sla", op: "breached", value: "" }],
      actions: [{ type: "add_tag", value: "sla-breached" }],
    });
    const ticket = await newTicket(desk, owner);
    await settle();
    clock.advance(20 * MINUTE);
    expect(await pass()).toBe(0);
    clock.advance(15 * MINUTE);
    expect(await pass()).toBe(1);
    expect((await ticketOf(owner, ticket.id)).assignee?.id).toBe(lead.id);
    const [run] = await runsOf(owner, dueRule.id);
    expect(run!.matched[0]).toEqual({ field: "sla", op: "due_within_minutes", value: 30, actual: 25 });
    clock.advance(30 * MINUTE);
    await breachPass(desk.deps);
    expect(await pass()).toBe(1);
    expect((await ticketOf(owner, ticket.id)).tags.map((t: { name: string }) => t.name)).toEqual(["sla-breached"]);
  });

  test("a rule acts only on its workspace's tickets, private teams included; other workspaces get 404 on it", async () => {
    const a = await workspace();
    const b = await workspace();
    const team = await newTeam(desk, a.owner, { name: "Secret", private: true });
    const ruleA = await rule(a.owner, {
      conditions: [{ field: "hours_since_created", op: "gt", value: 1 }],
      actions: [{ type: "add_tag", value: "old" }],
    });
    const mine = await newTicket(desk, a.owner, { team_id: team.id });
    const theirs = await newTicket(desk, b.owner);
    clock.advance(2 * HOUR);
    expect(await pass()).toBe(1);
    expect((await ticketOf(a.owner, mine.id)).tags.map((t: { name: string }) => t.name)).toEqual(["old"]);
    expect((await ticketOf(b.owner, theirs.id)).tags).toEqual([]);
    expect((await desk.api("GET", `/v1/automations/${ruleA.id}/runs`, { headers: b.owner.headers })).status).toBe(404);
    // The run log names private-team tickets: only admins read it.
    const agent = await addMember(desk, a.workspace.id, "agent");
    expect((await desk.api("GET", `/v1/automations/${ruleA.id}/runs`, { headers: agent.headers })).status).toBe(403);
  });
});
