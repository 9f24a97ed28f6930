/**
 * The agent's AI tools in a real browser against dist/desk and the local fake provider: a draft
 * streamed into the composer, rewrite and translate of the reply, the summary panel, the ask box,
 * triage with its suggestion chips (accept and dismiss), the AI settings page and the usage report.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Browser, Page } from "playwright-core";
import { type ChatRequest, type FakeAi, fakeAiEnv, startFakeAi } from "../peers/fake-ai";
import {
  call,
  browserTestsReady,
  eventually,
  launchChromium,
  ownerWithWorkspace,
  type RunningDesk,
  shown,
  signIn,
  startDeskBinary,
} from "./browser";

const ready = browserTestsReady();

const STEP = 60_000;
let desk: RunningDesk;
let fake: FakeAi;
let browser: Browser;
let page: Page;
const owner = { name: "Olga Owner", email: "olga@ai.test", password: "correct horse battery", token: "" };
let headers: Record<string, string> = {};

const DRAFT = "Hello Carla,\n\nYour replacement ships today and arrives on Thursday.";

/** The fake model's answers, by what each feature asks for. */
function answer(request: ChatRequest) {
  const name = request.response_format?.json_schema?.name;
  const system = request.messages[0]?.content ?? "";
  if (name === "triage")
    return {
      json: {
        priority: "high",
        severity: "none",
        category: "shipping",
        sentiment: "negative",
        language: "en",
        spam_probability: 0.9,
        needs_human: true,
        sla_risk: 0.4,
        summary: "Broken item.",
        team: "Returns",
      },
    };
  if (name === "ticket_summary")
    return { json: { summary: "The mug arrived broken.", key_points: ["order 77"], sentiment: "negative" } };
  if (name === "translation") return { json: { translation: "Hallo Carla", source_language: "en" } };
  if (system.includes("rewrite")) return { text: "<p>Your replacement ships today.</p>" };
  if (system.includes("asks you a question")) return { text: "She wants a replacement mug." };
  return { text: DRAFT };
}

describe.skipIf(!ready.ok)("AI tools (Chromium against dist/desk and a fake provider)", () => {
  beforeAll(async () => {
    fake = await startFakeAi();
    fake.answer = answer;
    fake.pieceDelayMs = 15;
    desk = await startDeskBinary(fakeAiEnv(fake));
    browser = await launchChromium();
    const registered = await ownerWithWorkspace(desk.url, owner, "AI Co");
    headers = registered.headers;
    await call(desk.url, "POST", "/v1/teams", headers, { name: "Returns" });
    const context = await browser.newContext({ viewport: { width: 1360, height: 900 } });
    page = await context.newPage();
    page.setDefaultTimeout(10_000);
    await signIn(page, desk.url, owner);
  }, STEP);

  afterAll(async () => {
    await browser?.close();
    await desk?.stop();
    await fake?.stop();
  }, STEP);

  test(
    "composer: a draft streams into the reply; rewrite and translate replace it",
    async () => {
      const ticket = await call(desk.url, "POST", "/v1/tickets", headers, {
        subject: "Broken mug",
        contact: { email: "carla@customer.test", name: "Carla" },
        body_html: "<p>My mug arrived broken, order 77.</p>",
      });
      await page.goto(`${desk.url}/tickets/${ticket.body.number}`);
      await shown(page.getByRole("heading", { name: /Broken mug/ }));
      const reply = page.getByRole("textbox", { name: "Reply" });
      await page.getByRole("button", { name: "Draft with AI" }).click();
      // The text arrives in pieces: a part of it shows before the whole.
      const seen = new Set<string>();
      const deadline = Date.now() + 8000;
      while (Date.now() < deadline) {
        const value = await reply.inputValue();
        seen.add(value);
        if (value === DRAFT) break;
        await Bun.sleep(5);
      }
      expect([...seen].some((v) => v.length > 0 && v.length < DRAFT.length)).toBe(true);
      expect(await eventually(() => reply.inputValue(), DRAFT)).toBe(DRAFT);

      await page.getByLabel("Rewrite with AI").selectOption("shorter");
      expect(await eventually(() => reply.inputValue(), "Your replacement ships today.")).toBe(
        "Your replacement ships today.",
      );
      await page.getByLabel("Translate with AI").selectOption("de");
      expect(await eventually(() => reply.inputValue(), "Hallo Carla")).toBe("Hallo Carla");
      const rewrite = fake.chats().find((c) => c.body.messages[0]?.content?.includes("rewrite"));
      expect(rewrite?.body.messages[0]?.content).toContain("noticeably shorter");
    },
    STEP,
  );

  test(
    "ticket panel: summary, ask, triage with suggestion chips to accept and dismiss",
    async () => {
      const ticket = await call(desk.url, "POST", "/v1/tickets", headers, {
        subject: "Mug again",
        contact: { email: "carla@customer.test", name: "Carla" },
        body_html: "<p>Still broken.</p>",
      });
      await page.goto(`${desk.url}/tickets/${ticket.body.number}`);
      await shown(page.getByRole("heading", { name: /Mug again/ }));
      const panel = page.getByRole("region", { name: "AI" });
      await panel.getByRole("button", { name: "Summarize" }).click();
      await shown(panel.getByText("The mug arrived broken."));

      await panel.getByLabel("Ask AI about this ticket").fill("What does she want?");
      await panel.getByRole("button", { name: "Ask" }).click();
      await shown(panel.getByText("She wants a replacement mug."));

      await panel.getByRole("button", { name: "Triage with AI" }).click();
      // Priority applied (raised); the team (not an allowed field by default) and spam are suggested.
      expect(await eventually(() => page.getByLabel("Priority").inputValue(), "high")).toBe("high");
      const chips = panel.getByRole("list", { name: "AI suggestions" });
      await shown(chips.getByText("Returns"));
      await chips.getByRole("button", { name: "Accept Team suggestion" }).click();
      const teamSelect = page.getByLabel("Team");
      expect(
        await eventually(async () => (await teamSelect.locator("option:checked").textContent()) ?? "", "Returns"),
      ).toBe("Returns");
      await chips.getByRole("button", { name: "Dismiss Spam suggestion" }).click();
      await page.waitForFunction(() => !document.querySelector('[aria-label="AI suggestions"]'));
      const stored = await call(desk.url, "GET", `/v1/tickets/${ticket.body.id}`, headers);
      expect(stored.body.spam).toBe(false);
      expect(stored.body.custom.ai_suggestions).toBeUndefined();
      expect(stored.body.custom.ai_summary.summary).toBe("The mug arrived broken.");
    },
    STEP,
  );

  test(
    "settings: AI settings save, and the usage report shows the recorded calls with a chart",
    async () => {
      await page.goto(`${desk.url}/settings/ai`);
      const form = page.getByRole("form", { name: "AI settings" });
      await shown(form);
      await form.getByLabel("Tone").fill("concise");
      await form.getByLabel("Triage new tickets automatically").check();
      await form.getByRole("button", { name: "Save AI settings" }).click();
      expect(
        await eventually(
          async () => (await call(desk.url, "GET", "/v1/ai/config", headers)).body.features.tone,
          "concise",
        ),
      ).toBe("concise");
      expect((await call(desk.url, "GET", "/v1/ai/config", headers)).body.features.auto_triage).toBe(true);

      await page.goto(`${desk.url}/settings/ai-usage`);
      await shown(page.getByRole("img", { name: "AI spend per day" }));
      const report = (await call(desk.url, "GET", "/v1/billing/usage", headers)).body;
      expect(report.total_calls).toBeGreaterThanOrEqual(6);
      await shown(page.locator("p", { hasText: `in ${report.total_calls} calls` }));
      await shown(page.getByRole("table", { name: "By feature" }).getByText("draft reply"));
    },
    STEP,
  );
});
