/**
 * The assistant in a real browser against dist/desk and the local fake provider (scripted to call
 * tools): ask from a ticket page, watch the steps and the streamed answer, see the approval card
 * (from → to, the target), approve, and see the ticket change live; a tip on the inbox asks too.
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
const owner = { name: "Ada Assistant", email: "ada@assistant.test", password: "correct horse battery", token: "" };
let headers: Record<string, string> = {};
let ticketId = "";
let ownerId = "";
let teamId = "";

/** The scripted model: propose the change the person asked for, then say it is done. */
const HOSTILE =
  'Here: **bold**, `code`, #1 and <img src=x onerror="window.pwned=1"> [click](javascript:window.pwned=1) <script>window.pwned=1</script>';

function answer(request: ChatRequest) {
  const last = request.messages.at(-1);
  if (last?.role === "user" && last.content?.includes("format")) return { text: HOSTILE };
  if (last?.role === "tool")
    return { text: last.content?.includes("approved") ? "Done: **#1** is urgent now." : "OK." };
  if (last?.content?.includes("Billing"))
    return {
      tool: {
        name: "update_ticket",
        arguments: { ticket: ticketId, changes: { assignee_id: ownerId, team_id: teamId } },
      },
    };
  if (last?.content?.includes("stranger"))
    return {
      tool: { name: "update_ticket", arguments: { ticket: ticketId, changes: { assignee_id: crypto.randomUUID() } } },
    };
  if (last?.content?.includes("refund"))
    return {
      tool: { name: "bulk_update_tickets", arguments: { filter: { q: "refund" }, changes: { status: "solved" } } },
    };
  return { tools: [{ name: "update_ticket", arguments: { ticket: ticketId, changes: { priority: "urgent" } } }] };
}

describe.skipIf(!ready.ok)("assistant (Chromium against dist/desk and a fake provider)", () => {
  beforeAll(async () => {
    fake = await startFakeAi();
    fake.answer = answer;
    fake.pieceDelayMs = 10;
    desk = await startDeskBinary(fakeAiEnv(fake));
    browser = await launchChromium();
    const registered = await ownerWithWorkspace(desk.url, owner, "Assist Co");
    headers = registered.headers;
    ownerId = registered.userId;
    teamId = (await call<{ id: string }>(desk.url, "POST", "/v1/teams", headers, { name: "Billing" })).body.id;
    await call(desk.url, "PATCH", "/v1/ai/settings", headers, { assistant: true });
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
    "ask, see the approval card, approve, see the ticket change live",
    async () => {
      const ticket = await call(desk.url, "POST", "/v1/tickets", headers, {
        subject: "Printer on fire",
        contact: { email: "pat@customer.test", name: "Pat" },
        body_html: "<p>Please help.</p>",
      });
      ticketId = ticket.body.id;
      await page.goto(`${desk.url}/tickets/${ticket.body.number}`);
      await shown(page.getByRole("heading", { name: /Printer on fire/ }));
      expect(await page.getByLabel("Priority").inputValue()).toBe("normal");
      await page.keyboard.press("Control+j");
      const panel = page.getByRole("complementary", { name: "Assistant" });
      await panel.getByLabel("Message the assistant").fill(`Set #${ticket.body.number} to urgent`);
      await panel.getByRole("button", { name: "Send" }).click();
      const card = panel.getByRole("region", { name: "Approval" });
      await shown(card.getByRole("heading", { name: `Update #${ticket.body.number}` }));
      await shown(card.getByRole("cell", { name: "urgent" }));
      await shown(card.getByRole("cell", { name: "normal" }));
      await shown(card.getByRole("link", { name: /Printer on fire/ }));
      expect(await page.getByLabel("Priority").inputValue()).toBe("normal");
      await card.getByRole("button", { name: "Approve" }).click();
      await shown(panel.getByText("is urgent now"));
      await shown(panel.getByText("Approved", { exact: false }));
      expect(await eventually(() => page.getByLabel("Priority").inputValue(), "urgent")).toBe("urgent");
      // The conversation is listed, titled by the first message.
      await shown(panel.getByText(/Conversations \(1\)/));
    },
    STEP,
  );
  test(
    "answers are markdown rendered without HTML: tags stay text, script links are not links",
    async () => {
      await page.goto(`${desk.url}/inbox/all`);
      const panel = page.getByRole("complementary", { name: "Assistant" });
      if (!(await panel.isVisible())) await page.getByRole("button", { name: "Assistant", exact: true }).click();
      await panel.getByRole("button", { name: "New" }).click();
      await panel.getByLabel("Message the assistant").fill("Show me the format");
      await page.keyboard.press("Enter");
      await shown(panel.locator("strong", { hasText: "bold" }));
      await shown(panel.locator("code", { hasText: "code" }));
      await shown(panel.getByRole("link", { name: "#1", exact: true }));
      expect(await panel.locator("img, script").count()).toBe(0);
      expect(await panel.locator('a[href^="javascript"]').count()).toBe(0);
      await shown(panel.getByText("<img src=x", { exact: false }));
      expect(await page.evaluate(() => (window as unknown as { pwned?: number }).pwned)).toBeUndefined();
    },
    STEP,
  );
  test(
    "the approval card names people and teams, counts a bulk change's tickets, and explains a change it cannot offer",
    async () => {
      await page.goto(`${desk.url}/inbox/all`);
      const panel = page.getByRole("complementary", { name: "Assistant" });
      if (!(await panel.isVisible())) await page.getByRole("button", { name: "Assistant", exact: true }).click();
      await panel.getByRole("button", { name: "New" }).click();
      await panel.getByLabel("Message the assistant").fill("Assign it to me in Billing");
      await page.keyboard.press("Enter");
      const card = panel.getByRole("region", { name: "Approval" });
      await shown(card.getByRole("cell", { name: "Assignee" }));
      await shown(card.getByRole("cell", { name: owner.name }));
      await shown(card.getByRole("cell", { name: "Billing", exact: true }));
      await shown(card.getByRole("cell", { name: "Nobody" }));
      expect(await card.textContent()).not.toContain(ownerId);
      expect(await card.textContent()).not.toContain("assignee_id");
      await card.getByRole("button", { name: "Deny" }).click();

      for (const subject of ["refund for order 1", "refund for order 2", "refund for order 3"])
        await call(desk.url, "POST", "/v1/tickets", headers, { subject, body_html: "<p>refund</p>" });
      await panel.getByRole("button", { name: "New" }).click();
      await panel.getByLabel("Message the assistant").fill("Solve the refund tickets");
      await page.keyboard.press("Enter");
      await shown(card.getByText("Applies to 3 tickets"));
      await shown(card.getByRole("list", { name: "Tickets" }).getByRole("link", { name: /refund for order 2/ }));
      await shown(card.getByRole("cell", { name: "Solved" }));
      await card.getByRole("button", { name: "Deny" }).click();

      await panel.getByRole("button", { name: "New" }).click();
      await panel.getByLabel("Message the assistant").fill("Assign it to the stranger");
      await page.keyboard.press("Enter");
      await shown(panel.getByRole("list", { name: "Steps" }).getByText("cannot be made", { exact: false }));
      expect(await panel.getByRole("region", { name: "Approval" }).count()).toBe(0);
    },
    STEP,
  );
});
