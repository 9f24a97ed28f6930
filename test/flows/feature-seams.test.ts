import { afterAll, describe, expect, test } from "bun:test";
import { createWorkspaceWithOwner } from "../factories";
import { startTestDesk } from "../harness";
import { fakeAiEnv, startFakeAi } from "../peers/fake-ai";

/**
 * The ports that connect features which may not import each other (src/lib/ports.ts), each
 * through the API against the local OpenAI-compatible provider: automations ask the AI (ai_decide)
 * and start its triage; AI drafts ground on the knowledge base; triage obeys the triage settings and
 * hands over to assignment; the onboarding checklist sees published articles.
 */
const fake = await startFakeAi();
afterAll(() => fake.stop());
const desk = await startTestDesk({ env: fakeAiEnv(fake) });

const ticketOf = async (headers: Record<string, string>, id: string) =>
  (await desk.api("GET", `/v1/tickets/${id}`, { headers })).body;

async function customerTicket(headers: Record<string, string>, subject: string, body: string) {
  const res = await desk.api("POST", "/v1/tickets", {
    headers,
    body: { subject, contact: { email: "carla@customer.test" }, body_text: body },
  });
  expect(res.status).toBe(201);
  return res.body as { id: string };
}

const triageAnswer = (over: Record<string, unknown> = {}) => ({
  json: {
    priority: "urgent",
    severity: "sev2",
    category: "billing",
    sentiment: "frustrated",
    language: "en",
    spam_probability: 0.01,
    needs_human: true,
    sla_risk: 0.4,
    summary: "A double charge.",
    type_label: "",
    label: "",
    team: "",
    ...over,
  },
});

describe("automations ↔ AI", () => {
  test("an ai_decide condition asks the model once and holds above its threshold; ai_triage runs the triage", async () => {
    const { owner } = await createWorkspaceWithOwner(desk);
    const created = await desk.api("POST", "/v1/automations", {
      headers: owner.headers,
      body: {
        name: "Refunds are urgent",
        trigger: "ticket_created",
        conditions: [{ field: "ai_decide", op: "gt", value: 0.6, question: "Does the customer ask for a refund?" }],
        actions: [
          { type: "add_tag", value: "refund" },
          { type: "ai_triage", value: "" },
        ],
      },
    });
    expect(created.status).toBe(201);
    fake.answer = (request) =>
      request.response_format?.json_schema?.schema &&
      JSON.stringify(request.response_format.json_schema.schema).includes("answers")
        ? { json: { sentiment: "negative", answers: [0.9] } }
        : triageAnswer();
    const before = fake.chats().length;
    const ticket = await customerTicket(owner.headers, "Charged twice", "Please refund the second charge.");
    for (let i = 0; i < 5; i++) {
      await desk.consumers.drain();
      await desk.jobs.drain();
    }
    const after = await ticketOf(owner.headers, ticket.id);
    expect(after.tags.map((t: { name: string }) => t.name)).toContain("refund");
    // The triage the automation started raised the priority (the model said urgent).
    expect(after.priority).toBe("urgent");
    const judged = fake
      .chats()
      .slice(before)
      .filter((r) => JSON.stringify(r.body.messages).includes("Does the customer ask for a refund?"));
    expect(judged).toHaveLength(1);

    fake.answer = () => ({ json: { sentiment: "positive", answers: [0.1] } });
    const other = await customerTicket(owner.headers, "Thanks", "All good, thank you.");
    for (let i = 0; i < 3; i++) {
      await desk.consumers.drain();
      await desk.jobs.drain();
    }
    expect((await ticketOf(owner.headers, other.id)).tags).toEqual([]);
  });
});

describe("AI ↔ knowledge base, triage settings, assignment; onboarding ↔ knowledge base", () => {
  test("a draft cites the published article; auto-triage obeys the settings and assigns; the checklist sees the article", async () => {
    const { owner } = await createWorkspaceWithOwner(desk);
    const before = await desk.api("GET", "/v1/onboarding", { headers: owner.headers });
    const step = (body: { steps: Array<{ id: string; done: boolean }> }) =>
      body.steps.find((s) => s.id === "publish_article")?.done;
    expect(step(before.body)).toBe(false);

    const helpCenter = await desk.api("PATCH", "/v1/workspace", {
      headers: owner.headers,
      body: { settings: { help_center_enabled: true } },
    });
    expect(helpCenter.status).toBe(200);
    const collection = await desk.api("POST", "/v1/kb/collections", {
      headers: owner.headers,
      body: { name: "Billing" },
    });
    expect(collection.status).toBe(201);
    const article = await desk.api("POST", "/v1/kb/articles", {
      headers: owner.headers,
      body: {
        collection_id: collection.body.id,
        title: "Refunds for double charges",
        body_html: "<p>Double charges are refunded within five days.</p>",
        status: "published",
      },
    });
    expect(article.status).toBe(201);
    expect(step((await desk.api("GET", "/v1/onboarding", { headers: owner.headers })).body)).toBe(true);

    const ticket = await customerTicket(owner.headers, "Double charges", "I see double charges on my card.");
    fake.answer = () => ({ text: "<p>We refund double charges within five days.</p>" });
    const draft = await desk.api("POST", `/v1/tickets/${ticket.id}/ai/draft`, { headers: owner.headers, body: {} });
    expect(draft.status).toBe(200);
    expect(draft.body.sources).toEqual([
      expect.objectContaining({
        title: "Refunds for double charges",
        url: expect.stringMatching(/\/help\/[^/]+\/articles\/refunds-for-double-charges$/),
      }),
    ]);
    expect(JSON.stringify(fake.chats().at(-1)!.body.messages)).toContain("refunded within five days");

    // Auto-triage on with assignment after it: the new ticket is triaged, then assigned by the rules.
    expect(
      (
        await desk.api("PATCH", "/v1/ai/settings", {
          headers: owner.headers,
          body: { auto_triage: true },
        })
      ).status,
    ).toBe(200);
    expect(
      (
        await desk.api("PATCH", "/v1/triage", {
          headers: owner.headers,
          body: { auto_triage: true, assign_after_triage: true, fields: ["priority"] },
        })
      ).status,
    ).toBe(200);
    expect(
      (await desk.api("PATCH", "/v1/assignment", { headers: owner.headers, body: { mode: "round_robin" } })).status,
    ).toBe(200);
    fake.answer = () => triageAnswer({ priority: "high" });
    const triaged = await customerTicket(owner.headers, "Card charged", "My card was charged for nothing.");
    await desk.consumers.drain();
    // Assignment waits for the triage that hands over to it.
    expect((await ticketOf(owner.headers, triaged.id)).assignee).toBeNull();
    for (let i = 0; i < 5; i++) {
      await desk.consumers.drain();
      await desk.jobs.drain();
    }
    const after = await ticketOf(owner.headers, triaged.id);
    expect(after.priority).toBe("high");
    expect(after.assignee?.id).toBe(owner.id);
  });
});
