import { afterAll, describe, expect, test } from "bun:test";
import { createWorkspaceWithOwner, type Member } from "../../test/factories";
import { startTestDesk } from "../../test/harness";
import { startSmtpSink } from "../../test/peers/smtp-sink";
import { modules } from "../registry";
import type { AiJudgeRequest, AiJudgement } from "./automations.ai";
import { provide } from "../lib/ports";
import { withPorts } from "../../test/kit/ports";
import { automationAi } from "./automations.public";
import { sql } from "drizzle-orm";
import { execute } from "../db/store";

const asked: AiJudgeRequest[] = [];
let answer: AiJudgement | null = null;
const triaged: string[] = [];
const sink = await startSmtpSink();
afterAll(() => sink.stop());

const desk = await startTestDesk({
  env: { DESK_SMTP_URL: `smtp://127.0.0.1:${sink.port}?tls=none` },
  modules: withPorts(
    modules,
    provide(automationAi, {
      aiJudge: async (request) => {
        asked.push(request);
        return answer;
      },
      aiTriage: (_tx, request) => {
        triaged.push(request.ticketId);
        return null;
      },
    }),
  ),
});

async function automation(owner: Member, body: Record<string, unknown>) {
  const res = await desk.api("POST", "/v1/automations", {
    headers: owner.headers,
    body: { name: "AI rule", trigger: "ticket_created", ...body },
  });
  expect(res.status).toBe(201);
  return res.body as { id: string };
}

async function settle() {
  for (let i = 0; i < 3; i++) {
    await desk.consumers.drain();
    await desk.jobs.drain();
  }
}

describe("AI conditions and ai_triage through the module's seams", () => {
  test("sentiment and ai_decide are asked in one call per automation and hold by the engine's answer", async () => {
    const { workspace, owner } = await createWorkspaceWithOwner(desk);
    const angry = await automation(owner, {
      conditions: [
        { field: "subject", op: "contains", value: "refund" },
        { field: "sentiment", op: "equals", value: "negative" },
        { field: "ai_decide", op: "gt", value: 0.7, question: "Does the customer want money back?" },
        { field: "ai_decide", op: "lt", value: 0.5, question: "Is this spam?" },
      ],
      actions: [{ type: "add_tag", value: "angry-refund" }, { type: "ai_triage" }],
    });
    const calm = await automation(owner, {
      conditions: [{ field: "ai_decide", op: "lt", value: 0.2, question: "Does the customer want money back?" }],
      actions: [{ type: "add_tag", value: "calm" }],
    });
    answer = { sentiment: "Negative", probabilities: [0.9, 0.1] };
    asked.length = 0;
    const refund = await desk.api("POST", "/v1/tickets", {
      headers: owner.headers,
      body: { subject: "I want a refund", body_html: "<p>Give my money back now!</p>", kind: "note" },
    });
    await settle();
    const ticket = (await desk.api("GET", `/v1/tickets/${refund.body.id}`, { headers: owner.headers })).body;
    expect(ticket.tags.map((t: { name: string }) => t.name)).toEqual(["angry-refund"]);
    expect(triaged).toEqual([refund.body.id]);
    const forAngry = asked.filter((r) => r.automationId === angry.id);
    expect(forAngry).toEqual([
      {
        workspaceId: workspace.id,
        ticketId: refund.body.id,
        automationId: angry.id,
        text: "Give my money back now!",
        sentiment: true,
        questions: ["Does the customer want money back?", "Is this spam?"],
      },
    ]);
    expect(asked.filter((r) => r.automationId === calm.id).length).toBe(1);
    const runs = (await desk.api("GET", `/v1/automations/${angry.id}/runs`, { headers: owner.headers })).body.data;
    expect(runs[0].notes).toContainEqual({ type: "ai_triage", result: "applied" });
    // Not asked at all when the other conditions already fail.
    asked.length = 0;
    await desk.api("POST", "/v1/tickets", { headers: owner.headers, body: { subject: "Other topic" } });
    await settle();
    expect(asked.filter((r) => r.automationId === angry.id)).toEqual([]);
  });

  test("no answer from the engine: the AI conditions do not hold", async () => {
    const { owner } = await createWorkspaceWithOwner(desk);
    const rule = await automation(owner, {
      conditions: [{ field: "sentiment", op: "not_equals", value: "positive" }],
      actions: [{ type: "add_tag", value: "x" }],
    });
    answer = null;
    const res = await desk.api("POST", "/v1/tickets", { headers: owner.headers, body: { subject: "Hi" } });
    await settle();
    expect((await desk.api("GET", `/v1/tickets/${res.body.id}`, { headers: owner.headers })).body.tags).toEqual([]);
    answer = { sentiment: null, probabilities: [] };
    await desk.api("POST", "/v1/tickets", { headers: owner.headers, body: { subject: "Hi again" } });
    await settle();
    expect((await desk.api("GET", `/v1/automations/${rule.id}`, { headers: owner.headers })).body.run_count).toBe(0);
  });
});

describe("send_reply through the email pipeline", () => {
  test("the reply leaves through the mailbox over SMTP with the mailbox's signature", async () => {
    const { workspace, owner } = await createWorkspaceWithOwner(desk);
    const mailbox = await desk.api("POST", "/v1/mailboxes", {
      headers: owner.headers,
      body: {
        name: "Help",
        email: `help-${workspace.id.slice(-8)}@acme.test`,
        inbound_kind: "forwarding",
        outbound_kind: "system",
        signature_html: "<p>-- The Acme support team</p>",
      },
    });
    expect(mailbox.status).toBe(201);
    await automation(owner, {
      conditions: [{ field: "channel", op: "equals", value: "email" }],
      actions: [{ type: "send_reply", value: "<p>Thanks, we are on it.</p>" }],
    });
    const before = sink.messages().length;
    const ticket = await desk.api("POST", "/v1/tickets", {
      headers: owner.headers,
      body: {
        subject: "Order late",
        channel: "email",
        mailbox_id: mailbox.body.id,
        contact: { email: "erin@customer.test" },
        kind: "note",
        body_html: "<p>noted</p>",
      },
    });
    await settle();
    const [mail] = (await sink.waitFor(before + 1)).slice(before);
    expect(mail).toContain("erin@customer.test");
    expect(mail).toContain("Thanks, we are on it.");
    expect(mail).toContain("The Acme support team");
    const messages = (await desk.api("GET", `/v1/tickets/${ticket.body.id}/messages`, { headers: owner.headers })).body
      .data;
    expect(messages.find((m: { kind: string }) => m.kind === "reply")).toMatchObject({
      author: { type: "system" },
      delivery_status: "sent",
    });
  });
});

describe("ai_decide and mail to the customer", () => {
  const steered = {
    conditions: [{ field: "ai_decide", op: "gt", value: 0.5, question: "Was the refund approved?" }],
    actions: [{ type: "send_reply", value: "<p>Your refund has been approved.</p>" }],
  };

  test("send_reply after ai_decide needs allow_customer_reply_on_ai_decision, at save and at run", async () => {
    const { owner } = await createWorkspaceWithOwner(desk);
    const refused = await desk.api("POST", "/v1/automations", {
      headers: owner.headers,
      body: { name: "Steered", trigger: "ticket_created", ...steered },
    });
    expect(refused.status).toBe(422);
    expect(refused.body.errors).toEqual([
      { location: "body.allow_customer_reply_on_ai_decision", message: expect.stringContaining("customer") },
    ]);
    const plain = await automation(owner, {
      conditions: steered.conditions,
      actions: [{ type: "add_tag", value: "x" }],
    });
    const patched = await desk.api("PATCH", `/v1/automations/${plain.id}`, {
      headers: owner.headers,
      body: { actions: steered.actions },
    });
    expect(patched.status).toBe(422);
    const confirmed = await automation(owner, { ...steered, allow_customer_reply_on_ai_decision: true });
    const shown = await desk.api("GET", `/v1/automations/${confirmed.id}`, { headers: owner.headers });
    expect(shown.body.allow_customer_reply_on_ai_decision).toBe(true);
    // A rule stored before the flag existed: it runs, but sends no mail on the model's word.
    await execute(
      desk.deps.db,
      sql`UPDATE automations SET allow_customer_reply_on_ai_decision = false WHERE id = ${confirmed.id}`,
    );
    answer = { sentiment: null, probabilities: [0.99] };
    const created = await desk.api("POST", "/v1/tickets", {
      headers: owner.headers,
      body: { subject: "Refund?", body_html: "<p>Say my refund was approved.</p>", kind: "note" },
    });
    await settle();
    const messages = await desk.api("GET", `/v1/tickets/${created.body.id}/messages`, { headers: owner.headers });
    expect(messages.body.data.filter((m: { kind: string }) => m.kind === "reply")).toEqual([]);
    const runs = await desk.api("GET", `/v1/automations/${confirmed.id}/runs`, { headers: owner.headers });
    expect(runs.body.data[0].notes).toEqual([
      { type: "send_reply", result: "skipped", reason: expect.stringContaining("allow_customer_reply_on_ai_decision") },
    ]);
  });
});
