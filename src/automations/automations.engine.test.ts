import { describe, expect, test } from "bun:test";
import { systemContext } from "../auth/context";
import { addMember, createWorkspaceWithOwner, type Member } from "../../test/factories";
import { startTestDesk, type TestDesk } from "../../test/harness";
import { addMessage, createTicket } from "../tickets/tickets.public";
import { newField, newTeam } from "../../test/kit/tickets";
import { pruneAutomationRunsJob, RUN_RETENTION_DAYS } from "./automations.jobs";
import { eq, sql } from "drizzle-orm";
import { execute, rowsOf } from "../db/store";
import { automations } from "./automations.table";

const desk: TestDesk = await startTestDesk();

type Ticket = {
  id: string;
  priority: string;
  severity: string | null;
  status: string;
  spam: boolean;
  team_id: string | null;
  assignee: { id: string } | null;
  tags: Array<{ id: string; name: string }>;
  fields: Record<string, unknown>;
  contact: { id: string } | null;
};

async function automation(owner: Member, body: Record<string, unknown>) {
  const res = await desk.api("POST", "/v1/automations", {
    headers: owner.headers,
    body: { name: `A ${crypto.randomUUID().slice(0, 6)}`, trigger: "ticket_created", ...body },
  });
  if (res.status !== 201) throw new Error(`automation not created: ${res.text}`);
  return res.body as { id: string; name: string };
}

async function ticketNow(owner: Member, id: string): Promise<Ticket> {
  await desk.consumers.drain();
  return (await desk.api("GET", `/v1/tickets/${id}`, { headers: owner.headers })).body as Ticket;
}

async function created(owner: Member, body: Record<string, unknown>): Promise<Ticket> {
  const res = await desk.api("POST", "/v1/tickets", { headers: owner.headers, body: { subject: "Hello", ...body } });
  if (res.status !== 201) throw new Error(`ticket not created: ${res.text}`);
  return ticketNow(owner, res.body.id);
}

const tagNames = (ticket: Ticket) => ticket.tags.map((t) => t.name).sort();
const runsOf = async (owner: Member, automationId: string) =>
  (await desk.api("GET", `/v1/automations/${automationId}/runs`, { headers: owner.headers })).body.data as Array<{
    outcome: string;
    depth: number;
    ticket_id: string;
    notes: Array<{ type: string; result: string; reason?: string }>;
  }>;
const activitiesOf = async (owner: Member, ticketId: string) =>
  (await desk.api("GET", `/v1/tickets/${ticketId}/activities`, { headers: owner.headers })).body.data as Array<{
    type: string;
    data: Record<string, unknown>;
    actor_type: string;
    actor: { type: string; user: unknown; automation?: { id: string; name: string } };
  }>;

describe("conditions", () => {
  test("each field and operator holds exactly where SPEC.md says", async () => {
    const { workspace, owner } = await createWorkspaceWithOwner(desk);
    const mailbox = await desk.api("POST", "/v1/mailboxes", {
      headers: owner.headers,
      body: {
        name: "Help",
        email: `help-${workspace.id.slice(-8)}@acme.test`,
        inbound_kind: "forwarding",
        outbound_kind: "system",
      },
    });
    await newField(desk, owner, {
      name: "Plan",
      key: "plan",
      type: "select",
      options: [{ label: "Gold" }, { label: "Silver" }],
    });
    await newField(desk, owner, { name: "Seats", key: "seats", type: "number" });
    await newField(desk, owner, { entity: "contact", name: "Tier", key: "tier", type: "text" });
    const cases: Array<[Record<string, unknown>, boolean]> = [
      [{ field: "subject", op: "contains", value: "INVOICE" }, true],
      [{ field: "subject", op: "not_contains", value: "invoice" }, false],
      [{ field: "subject", op: "equals", value: "invoice overdue" }, true],
      [{ field: "subject", op: "not_equals", value: "Invoice overdue" }, false],
      [{ field: "body", op: "contains", value: "refund" }, true],
      [{ field: "body", op: "not_contains", value: "refund" }, false],
      [{ field: "from_email", op: "equals", value: "carol@customer.test" }, true],
      [{ field: "from_email", op: "not_contains", value: "customer.test" }, false],
      [{ field: "channel", op: "equals", value: "api" }, true],
      [{ field: "channel", op: "not_equals", value: "api" }, false],
      [{ field: "mailbox_id", op: "equals", value: mailbox.body.id }, true],
      [{ field: "mailbox_id", op: "not_equals", value: mailbox.body.id }, false],
      [{ field: "priority", op: "equals", value: "high" }, true],
      [{ field: "priority", op: "not_equals", value: "high" }, false],
      [{ field: "severity", op: "equals", value: "sev2" }, true],
      [{ field: "severity", op: "equals", value: "none" }, false],
      [{ field: "severity", op: "not_equals", value: "none" }, true],
      [{ field: "status", op: "equals", value: "pending" }, true],
      [{ field: "status", op: "not_equals", value: "pending" }, false],
      [{ field: "tag", op: "equals", value: "vip" }, true],
      [{ field: "tag", op: "not_equals", value: "VIP" }, false],
      [{ field: "tag", op: "contains", value: "ip" }, true],
      [{ field: "tag", op: "not_contains", value: "ip" }, false],
      [{ field: "sentiment", op: "equals", value: "negative" }, false],
      [{ field: "sentiment", op: "not_equals", value: "negative" }, false],
      [{ field: "ai_decide", op: "gt", value: 0.01, question: "Is it about money?" }, false],
      [{ field: "field.plan", op: "equals", value: "gold" }, true],
      [{ field: "field.plan", op: "not_equals", value: "gold" }, false],
      [{ field: "field.plan", op: "none", value: "gold,silver" }, false],
      [{ field: "field.plan", op: "any", value: "silver,gold" }, true],
      [{ field: "field.plan", op: "set", value: "" }, true],
      [{ field: "field.seats", op: "gt", value: "3" }, true],
      [{ field: "field.seats", op: "lte", value: "3" }, false],
      [{ field: "field.seats", op: "not_set", value: "" }, false],
      [{ field: "contact.field.tier", op: "equals", value: "Enterprise" }, true],
      [{ field: "contact.field.tier", op: "contains", value: "free" }, false],
    ];
    for (const [index, [condition]] of cases.entries())
      await automation(owner, { conditions: [condition], actions: [{ type: "add_tag", value: `c${index}` }] });
    const contact = await desk.api("POST", "/v1/contacts", {
      headers: owner.headers,
      body: { email: "Carol@Customer.test", name: "Carol", fields: { tier: "enterprise" } },
    });
    expect(contact.status).toBe(201);
    const ticket = await created(owner, {
      subject: "Invoice overdue",
      contact_id: contact.body.id,
      mailbox_id: mailbox.body.id,
      body_html: "<p>Please refund me</p>",
      priority: "high",
      severity: "sev2",
      status: "pending",
      tags: ["VIP"],
      fields: { plan: "gold", seats: 5 },
    });
    const holding = cases.flatMap(([, holds], index) => (holds ? [`c${index}`] : []));
    expect(tagNames(ticket)).toEqual([...holding, "VIP"].sort());
    // A ticket with nothing set: negative operators hold, a contact field of no contact does not.
    const bare = await created(owner, { subject: "Other" });
    const bareHolds = [1, 3, 5, 7, 8, 11, 13, 15, 18, 20, 22, 27, 28, 33].map((i) => `c${i}`);
    expect(tagNames(bare)).toEqual(bareHolds.sort());
  });
});

describe("actions", () => {
  test("every ticket action applies in one update, attributed to the automation, bypassing required fields", async () => {
    const { workspace, owner } = await createWorkspaceWithOwner(desk);
    const agent = await addMember(desk, workspace.id, "agent");
    const team = await newTeam(desk, owner, { name: "Billing" });
    await newField(desk, owner, { name: "Reason", key: "reason", type: "text", required_on_solve: true });
    await newField(desk, owner, { name: "Seats", key: "seats", type: "number" });
    const group = await desk.api("POST", "/v1/tag-groups", {
      headers: owner.headers,
      body: { name: "Tier", exclusive: true },
    });
    for (const name of ["Gold", "Silver"])
      await desk.api("POST", "/v1/tags", { headers: owner.headers, body: { name, group_id: group.body.id } });
    const rule = await automation(owner, {
      name: "Do everything",
      actions: [
        { type: "set_status", value: "solved" },
        { type: "set_priority", value: "urgent" },
        { type: "set_severity", value: "sev1" },
        { type: "assign_user", value: agent.id },
        { type: "assign_team", value: team.id },
        { type: "add_tag", value: "Gold" },
        { type: "remove_tag", value: "obsolete" },
        { type: "set_field", field: "seats", value: "12" },
        { type: "add_note", value: "<p>Handled by a rule</p>" },
        { type: "mark_spam" },
        { type: "ai_triage" },
      ],
    });
    const ticket = await created(owner, { subject: "Anything", severity: "sev3", tags: ["Silver", "obsolete"] });
    expect(ticket).toMatchObject({
      status: "solved",
      priority: "urgent",
      severity: "sev1",
      assignee: { id: agent.id },
      team_id: team.id,
      spam: true,
      fields: { seats: 12 },
    });
    expect(tagNames(ticket)).toEqual(["Gold"]);
    const activities = await activitiesOf(owner, ticket.id);
    expect(activities.map((a) => a.type).sort()).toEqual(
      [
        "assigned",
        "field_changed",
        "priority_changed",
        "severity_changed",
        "status_changed",
        "tagged",
        "team_changed",
        "untagged",
        "untagged",
      ].sort(),
    );
    for (const activity of activities) {
      expect(activity.actor_type).toBe("automation");
      expect(activity.actor).toEqual({
        type: "automation",
        user: null,
        automation: { id: rule.id, name: "Do everything" },
      });
    }
    const messages = (await desk.api("GET", `/v1/tickets/${ticket.id}/messages`, { headers: owner.headers })).body.data;
    expect(
      messages.map((m: { kind: string; body_html: string; author: { type: string } }) => [
        m.kind,
        m.body_html,
        m.author.type,
      ]),
    ).toEqual([["note", "<p>Handled by a rule</p>", "system"]]);
    const [run] = await runsOf(owner, rule.id);
    expect(run).toMatchObject({ outcome: "applied", depth: 0, ticket_id: ticket.id });
    // This desk has no AI provider: the action is a recorded no-op saying why.
    expect(run!.notes).toContainEqual({
      type: "ai_triage",
      result: "noop",
      reason: "AI is not configured on this instance (DESK_AI_BASE_URL)",
    });
    const stored = (await desk.api("GET", `/v1/automations/${rule.id}`, { headers: owner.headers })).body;
    expect(stored.run_count).toBe(1);
    expect(stored.last_run_at).not.toBeNull();
  });

  test("set_severity empty clears; targets gone since saving are skipped and noted", async () => {
    const { workspace, owner } = await createWorkspaceWithOwner(desk);
    const agent = await addMember(desk, workspace.id, "agent");
    const team = await newTeam(desk, owner, { name: "Short-lived" });
    const field = await newField(desk, owner, { name: "Seats", key: "seats", type: "number" });
    const gone = await newField(desk, owner, { name: "Gone", key: "gone", type: "text" });
    const rule = await automation(owner, {
      actions: [
        { type: "set_severity", value: "" },
        { type: "assign_user", value: agent.id },
        { type: "assign_team", value: team.id },
        { type: "set_field", field: "seats", value: "3" },
        { type: "set_field", field: "gone", value: "x" },
        { type: "set_priority", value: "low" },
      ],
    });
    await desk.api("PATCH", `/v1/members/${agent.id}`, { headers: owner.headers, body: { role: "viewer" } });
    await desk.api("DELETE", `/v1/teams/${team.id}`, { headers: owner.headers });
    await desk.api("PATCH", `/v1/custom-fields/${field.id}`, { headers: owner.headers, body: { archived: true } });
    await desk.api("DELETE", `/v1/custom-fields/${gone.id}`, { headers: owner.headers });
    const ticket = await created(owner, { severity: "sev2" });
    expect(ticket).toMatchObject({ severity: null, priority: "low", assignee: null, team_id: null, fields: {} });
    const [run] = await runsOf(owner, rule.id);
    expect(run!.notes.filter((n) => n.result === "skipped")).toEqual([
      { type: "assign_user", result: "skipped", reason: "the user is no longer an assignable member" },
      { type: "assign_team", result: "skipped", reason: "the team no longer exists" },
      { type: "set_field", result: "skipped", reason: "the field is archived" },
      { type: "set_field", result: "skipped", reason: "the field was deleted" },
    ]);
  });
});

describe("labels the workspace refuses on tickets", () => {
  test("the label actions are skipped with the reason; the other changes still apply", async () => {
    const { owner } = await createWorkspaceWithOwner(desk);
    const label = await desk.api("POST", "/v1/tags", {
      headers: owner.headers,
      body: { name: "Key account", applies_to: ["contacts"] },
    });
    expect(label.status).toBe(201);
    const rule = await automation(owner, {
      actions: [
        { type: "add_tag", value: "Key account" },
        { type: "set_priority", value: "high" },
      ],
    });
    const ticket = await created(owner, {});
    expect(ticket.priority).toBe("high");
    expect(tagNames(ticket)).toEqual([]);
    const [run] = await runsOf(owner, rule.id);
    expect(run!.notes).toEqual([
      { type: "add_tag", result: "skipped", reason: 'the label "Key account" does not apply to tickets' },
      { type: "set_priority", result: "applied" },
    ]);
  });
});

describe("triggers", () => {
  test("customer_replied, agent_replied and ticket_updated fire on their events only", async () => {
    const { workspace, owner } = await createWorkspaceWithOwner(desk);
    const customer = await automation(owner, {
      trigger: "customer_replied",
      actions: [
        { type: "add_tag", value: "customer" },
        { type: "send_reply", value: "<p>We got your message</p>" },
      ],
    });
    const agentRule = await automation(owner, {
      trigger: "agent_replied",
      actions: [{ type: "add_tag", value: "agent" }],
    });
    const updated = await automation(owner, {
      trigger: "ticket_updated",
      conditions: [{ field: "priority", op: "equals", value: "low" }],
      actions: [{ type: "add_tag", value: "low" }],
    });
    const ctx = systemContext(workspace.id);
    // A ticket opened by a customer's email: its first message is no reply.
    const opened = await createTicket(
      ctx,
      {
        subject: "Broken",
        channel: "email",
        contact: { email: "dan@customer.test" },
        body_text: "It broke",
        direction: "inbound",
        author: { type: "contact" },
      },
      desk.deps,
    );
    expect(tagNames(await ticketNow(owner, opened.id))).toEqual([]);
    await addMessage(
      ctx,
      opened.id,
      { kind: "reply", body_text: "Still broken", direction: "inbound", author: { type: "contact" } },
      desk.deps,
    );
    // The automation's own reply is not an agent's: agent_replied does not fire.
    expect(tagNames(await ticketNow(owner, opened.id))).toEqual(["customer"]);
    expect((await runsOf(owner, agentRule.id)).length).toBe(0);
    await desk.api("POST", `/v1/tickets/${opened.id}/messages`, {
      headers: owner.headers,
      body: { kind: "note", body_html: "<p>n</p>" },
    });
    expect(tagNames(await ticketNow(owner, opened.id))).toEqual(["customer"]);
    await desk.api("POST", `/v1/tickets/${opened.id}/messages`, {
      headers: owner.headers,
      body: { kind: "reply", body_html: "<p>On it</p>" },
    });
    expect(tagNames(await ticketNow(owner, opened.id))).toEqual(["agent", "customer"]);
    await desk.api("PATCH", `/v1/tickets/${opened.id}`, { headers: owner.headers, body: { priority: "low" } });
    expect(tagNames(await ticketNow(owner, opened.id))).toEqual(["agent", "customer", "low"]);
    expect((await runsOf(owner, customer.id)).length).toBe(1);
    expect((await runsOf(owner, updated.id)).length).toBe(1);
    const messages = (await desk.api("GET", `/v1/tickets/${opened.id}/messages`, { headers: owner.headers })).body.data;
    const auto = messages.find((m: { body_html: string }) => m.body_html === "<p>We got your message</p>");
    // Sent like any reply (this ticket has no mailbox to send from: the outbox says so on the message).
    expect(auto).toMatchObject({
      kind: "reply",
      direction: "outbound",
      author: { type: "system" },
      to: ["dan@customer.test"],
    });
    // Disabled automations do nothing.
    await desk.api("PATCH", `/v1/automations/${updated.id}`, { headers: owner.headers, body: { enabled: false } });
    await desk.api("PATCH", `/v1/tickets/${opened.id}`, { headers: owner.headers, body: { priority: "normal" } });
    await desk.api("PATCH", `/v1/tickets/${opened.id}`, { headers: owner.headers, body: { priority: "low" } });
    await desk.consumers.drain();
    expect((await runsOf(owner, updated.id)).length).toBe(1);
  });
});

describe("loop protection and durability", () => {
  test("an automation never re-triggers itself", async () => {
    const { owner } = await createWorkspaceWithOwner(desk);
    const self = await automation(owner, {
      trigger: "ticket_updated",
      actions: [
        { type: "set_priority", value: "urgent" },
        { type: "add_tag", value: "seen" },
      ],
    });
    const ticket = await created(owner, {});
    await desk.api("PATCH", `/v1/tickets/${ticket.id}`, { headers: owner.headers, body: { priority: "low" } });
    expect((await ticketNow(owner, ticket.id)).priority).toBe("urgent");
    expect((await runsOf(owner, self.id)).map((r) => r.depth)).toEqual([0]);
  });

  test("a chain of automations stops at the bounded depth, recorded as a stopped run", async () => {
    const { owner } = await createWorkspaceWithOwner(desk);
    const step = (from: string, to: string) =>
      automation(owner, {
        trigger: "ticket_updated",
        conditions: [{ field: "priority", op: "equals", value: from }],
        actions: [{ type: "set_priority", value: to }],
      });
    // Placed in reverse, so each step runs only on the event the previous one caused (in one pass
    // over an event, later automations see what earlier ones changed).
    const c = await step("high", "urgent");
    const b = await step("normal", "high");
    const a = await step("low", "normal");
    const ticket = await created(owner, {});
    await desk.api("PATCH", `/v1/tickets/${ticket.id}`, { headers: owner.headers, body: { priority: "low" } });
    expect((await ticketNow(owner, ticket.id)).priority).toBe("high");
    expect((await runsOf(owner, a.id)).map((r) => [r.outcome, r.depth])).toEqual([["applied", 0]]);
    expect((await runsOf(owner, b.id)).map((r) => [r.outcome, r.depth])).toEqual([["applied", 1]]);
    const stopped = await runsOf(owner, c.id);
    expect(stopped.map((r) => [r.outcome, r.depth])).toEqual([["stopped", 2]]);
    expect(stopped[0]!.notes[0]!.reason).toContain("too deep");
    expect((await desk.api("GET", `/v1/automations/${c.id}`, { headers: owner.headers })).body.run_count).toBe(0);
  });

  test("a re-drained event (its cursor moved back) never runs an automation twice", async () => {
    const { owner, workspace } = await createWorkspaceWithOwner(desk);
    const rule = await automation(owner, { actions: [{ type: "add_note", value: "<p>once</p>" }] });
    await desk.consumers.drain();
    const cursor = (
      await rowsOf<{ last_seq: number }>(
        desk.deps.db,
        sql`SELECT last_seq FROM event_consumer_cursors WHERE consumer = 'automations.run' AND workspace_id = ${workspace.id}`,
      )
    )[0]!.last_seq;
    const ticket = await created(owner, {});
    await execute(
      desk.deps.db,
      sql`UPDATE event_consumer_cursors SET last_seq = ${cursor} WHERE consumer = 'automations.run' AND workspace_id = ${workspace.id}`,
    );
    await desk.consumers.drain();
    expect((await desk.api("GET", `/v1/automations/${rule.id}`, { headers: owner.headers })).body.run_count).toBe(1);
    expect((await runsOf(owner, rule.id)).length).toBe(1);
    const notes = (await desk.api("GET", `/v1/tickets/${ticket.id}/messages`, { headers: owner.headers })).body.data;
    expect(notes.length).toBe(1);
  });
});

describe("run records", () => {
  test("are pruned after RUN_RETENTION_DAYS by the daily job", async () => {
    const { owner } = await createWorkspaceWithOwner(desk);
    const rule = await automation(owner, { actions: [{ type: "add_tag", value: "kept" }] });
    await created(owner, {});
    expect((await runsOf(owner, rule.id)).length).toBe(1);
    const at = (days: number) => ({ now: () => new Date(Date.now() + days * 86_400_000) });
    const run = (days: number) =>
      pruneAutomationRunsJob.perform(
        {},
        {
          deps: { db: desk.deps.db, clock: at(days) },
          jobId: "test",
          attempt: 1,
          logger: desk.deps.logger,
          signal: new AbortController().signal,
        },
      );
    await run(RUN_RETENTION_DAYS - 1);
    expect((await runsOf(owner, rule.id)).length).toBe(1);
    await run(RUN_RETENTION_DAYS + 1);
    expect((await runsOf(owner, rule.id)).length).toBe(0);
    expect((await desk.api("GET", `/v1/automations/${rule.id}`, { headers: owner.headers })).body.run_count).toBe(1);
  });
});

describe("rules follow their labels", () => {
  const labelNamed = async (owner: Member, name: string) =>
    (
      (await desk.api("GET", "/v1/tags", { headers: owner.headers })).body.data as Array<{ id: string; name: string }>
    ).filter((t) => t.name === name);

  test("after a rename and a merge, a rule still matches and acts on the right label", async () => {
    const { owner } = await createWorkspaceWithOwner(desk);
    const tag = async (name: string) =>
      (await desk.api("POST", "/v1/tags", { headers: owner.headers, body: { name } })).body as { id: string };
    const vip = await tag("VIP");
    const flag = await tag("Flag");
    const legacy = await tag("legacy");
    const gold = await tag("Gold");
    // The builder's default operator for a label is "contains", with the label picked from the list.
    const flagging = await automation(owner, {
      conditions: [{ field: "tag", op: "contains", value: "VIP" }],
      actions: [{ type: "add_tag", value: "Flag" }],
    });
    const raising = await automation(owner, {
      conditions: [{ field: "tag", op: "equals", value: "legacy" }],
      actions: [{ type: "set_priority", value: "high" }],
    });
    const rename = (id: string, name: string) =>
      desk.api("PATCH", `/v1/tags/${id}`, { headers: owner.headers, body: { name } });
    expect((await rename(vip.id, "Very important")).status).toBe(200);
    expect((await rename(flag.id, "Flagged")).status).toBe(200);
    const merged = await desk.api("POST", `/v1/tags/${legacy.id}/merge`, {
      headers: owner.headers,
      body: { into: gold.id },
    });
    expect(merged.status).toBe(200);

    const important = await created(owner, { tags: ["Very important"] });
    expect(tagNames(important)).toEqual(["Flagged", "Very important"]);
    expect(important.tags.find((t) => t.name === "Flagged")).toMatchObject({ id: flag.id });
    expect(await labelNamed(owner, "Flag")).toEqual([]);
    const golden = await created(owner, { tags: ["Gold"] });
    expect(golden.priority).toBe("high");
    // A new label of the old name is another label: the rule kept the merged one.
    await tag("legacy");
    expect((await created(owner, { tags: ["legacy"] })).priority).not.toBe("high");

    // The rules show the labels' names now; ids stay inside.
    const shown = (await desk.api("GET", `/v1/automations/${flagging.id}`, { headers: owner.headers })).body;
    expect(shown.conditions).toEqual([{ field: "tag", op: "contains", value: "Very important" }]);
    expect(shown.actions).toEqual([{ type: "add_tag", value: "Flagged" }]);
    expect(
      (await desk.api("GET", `/v1/automations/${raising.id}`, { headers: owner.headers })).body.conditions,
    ).toEqual([{ field: "tag", op: "equals", value: "Gold" }]);
  });

  test("a rule stored with names only is resolved by name and gains the label's id on the next rename", async () => {
    const { owner } = await createWorkspaceWithOwner(desk);
    const vip = (await desk.api("POST", "/v1/tags", { headers: owner.headers, body: { name: "VIP" } })).body;
    const rule = await automation(owner, {
      conditions: [{ field: "tag", op: "equals", value: "VIP" }],
      actions: [{ type: "set_priority", value: "urgent" }],
    });
    await desk.deps.db
      .update(automations)
      .set({ conditions: [{ field: "tag", op: "equals", value: "vip" }] })
      .where(eq(automations.id, rule.id));
    expect((await created(owner, { tags: ["VIP"] })).priority).toBe("urgent");
    await desk.api("PATCH", `/v1/tags/${vip.id}`, { headers: owner.headers, body: { name: "Key account" } });
    const stored = (
      await desk.deps.db
        .select({ conditions: automations.conditions })
        .from(automations)
        .where(eq(automations.id, rule.id))
    )[0]!;
    expect(stored.conditions).toEqual([{ field: "tag", op: "equals", value: "Key account", tag_id: vip.id }]);
    expect((await created(owner, { tags: ["Key account"] })).priority).toBe("urgent");
  });
});
