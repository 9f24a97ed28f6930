import { afterAll, describe, expect, test } from "bun:test";
import { createWorkspaceWithOwner } from "../../test/factories";
import { startTestDesk } from "../../test/harness";
import { fakeAiEnv, startFakeAi } from "../../test/peers/fake-ai";
import { aiQuietOn, recordUsage, unattendedCapReached } from "../ai/ai.public";
import { systemContext } from "../auth/context";
import { manualClock } from "../lib/clock";
import { modules } from "../registry";
import { createTicket } from "../tickets/tickets.public";
import { WIDGET_AI_ALLOWANCE, WIDGET_LIMITS } from "../widget/widget.limits";
import { provide } from "../lib/ports";
import { withPorts } from "../../test/kit/ports";
import { articlesFor } from "./widget-answers.public";

const fake = await startFakeAi();
afterAll(() => fake.stop());
const clock = manualClock(new Date("2026-06-10T12:00:00Z"));
const ARTICLES = [{ title: "Tracking", url: "http://localhost/help/acme/tracking", text: "Open the tracking page." }];
const desk = await startTestDesk({
  env: fakeAiEnv(fake, { DESK_AI_MAX_RETRIES: "0" }),
  clock,
  modules: withPorts(
    modules,
    provide(articlesFor, () => ARTICLES),
  ),
});
fake.answer = (request) =>
  request.response_format?.json_schema?.name === "visitor_answer"
    ? {
        json: {
          answer: "Open the tracking page.",
          known: true,
          confidence: 0.9,
          handoff_requested: false,
          sources: [1],
        },
      }
    : request.response_format
      ? { json: { priority: "normal", summary: "", spam_probability: 0 } }
      : { text: "ok" };

/** How many provider calls carried `text` somewhere in their prompt. */
const callsAbout = (text: string) =>
  fake.chats().filter((c) => c.body.messages.some((m) => (m.content ?? "").includes(text))).length;

async function settle() {
  for (let i = 0; i < 3; i++) {
    await desk.consumers.drain();
    await desk.jobs.drain();
  }
}

async function aiWorkspace(settings: Record<string, unknown> = {}) {
  const ws = await createWorkspaceWithOwner(desk);
  const res = await desk.api("PATCH", "/v1/ai/settings", {
    headers: ws.owner.headers,
    body: { widget_answers: true, auto_triage: true, ...settings },
  });
  expect(res.status).toBe(200);
  return ws;
}

/** A visitor over a real socket (its address, 127.0.0.1, counts). */
async function visitorOf(key: string) {
  const res = await fetch(`${desk.url}/v1/widget/session`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ key }),
  });
  const body = (await res.json()) as { visitor_token: string };
  return { authorization: `Visitor ${body.visitor_token}`, "content-type": "application/json" };
}

describe("AI budget of anonymous chats", () => {
  test("past a visitor's hourly AI allowance their chats go to people: no answer, triage or rule calls", async () => {
    const { workspace, owner } = await aiWorkspace();
    const rule = await desk.api("POST", "/v1/automations", {
      headers: owner.headers,
      body: {
        name: "Refund?",
        trigger: "ticket_created",
        conditions: [{ field: "ai_decide", op: "gt", value: 0.5, question: "Does the customer want a refund?" }],
        actions: [{ type: "add_tag", value: "refund" }],
      },
    });
    expect(rule.status).toBe(201);
    const visitor = await visitorOf(workspace.widgetKey);
    const ids: string[] = [];
    for (let i = 0; i <= WIDGET_AI_ALLOWANCE.aiPerVisitor; i++) {
      // Stay under the per-minute write limits: this test is about the hour's AI allowance.
      if (i > 0 && i % WIDGET_LIMITS.writesPerVisitor === 0) clock.advance(61_000);
      const res = await fetch(`${desk.url}/v1/widget/conversations`, {
        method: "POST",
        headers: visitor,
        body: JSON.stringify({ body: `question number ${i} zq` }),
      });
      expect(res.status).toBe(201);
      ids.push(((await res.json()) as { conversation: { id: string } }).conversation.id);
    }
    await settle();
    const last = `question number ${WIDGET_AI_ALLOWANCE.aiPerVisitor} zq`;
    expect(callsAbout("question number 0 zq")).toBeGreaterThanOrEqual(3);
    expect(callsAbout(last)).toBe(0);
    expect(await aiQuietOn(desk.deps.db, workspace.id, ids.at(-1)!)).toBe(true);
    expect(await aiQuietOn(desk.deps.db, workspace.id, ids[0]!)).toBe(false);
  }, 30_000);

  test("the monthly cap counts the system's own triage and stops it on chats, not on mail", async () => {
    const { workspace, owner } = await aiWorkspace({ widget_monthly_cap_usd: 1 });
    await recordUsage(desk.deps, {
      workspaceId: workspace.id,
      userId: null,
      feature: "triage",
      model: "gpt-4o",
      inputTokens: 1_000_000,
      outputTokens: 0,
      source: "instance",
      ok: true,
    });
    expect(await unattendedCapReached(desk.deps, workspace.id)).toBe(true);
    for (const channel of ["chat", "email"] as const)
      await createTicket(
        systemContext(owner.workspaceId),
        {
          subject: `${channel} capped zz`,
          contact: { email: `v-${channel}@example.com` },
          channel,
          body_text: `${channel} capped zz`,
          direction: "inbound",
          author: { type: "contact" },
        },
        desk.deps,
      );
    await settle();
    expect(callsAbout("chat capped zz")).toBe(0);
    expect(callsAbout("email capped zz")).toBe(1);
  });

  test("a workspace that chose no cap has the default one (25 USD)", async () => {
    const { owner } = await createWorkspaceWithOwner(desk);
    const config = await desk.api("GET", "/v1/ai/config", { headers: owner.headers });
    expect(config.body.widget_monthly_cap_usd).toBe(25);
  });
});
