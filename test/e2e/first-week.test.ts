/**
 * A new team's first week in a real browser against dist/desk: the assistant button on a phone
 * covers nothing, anonymous chat visitors get a name and a customer card, self-service leads to a
 * person, and invitations say what really happened to their mail.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { type FakeAi, fakeAiEnv, startFakeAi } from "../peers/fake-ai";
import {
  browserTestsReady,
  call,
  launchChromium,
  ownerWithWorkspace,
  type RunningDesk,
  shown,
  signIn,
  startDeskBinary,
} from "./browser";

const ready = browserTestsReady();

const STEP = 45_000;
const INBOUND_SECRET = "first-week-inbound-secret";
// A 1×1 PNG.
const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==",
  "base64",
);
const owner = { name: "Wanda Week", email: "wanda@first-week.test", password: "correct horse battery" };
let desk: RunningDesk;
let fake: FakeAi;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let asOwner: Record<string, string> = {};
let site: ReturnType<typeof Bun.serve>;
let widgetKey = "";
let workspaceSlug = "";

/** A customer's site on another origin, every page of it carrying the widget's one tag. */
function customerSite(): ReturnType<typeof Bun.serve> {
  return Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch: () =>
      new Response(
        `<!doctype html><html lang="en"><head><title>Shop</title></head><body><main><h1>Our shop</h1></main>
<script src="${desk.url}/widget.js" data-key="${widgetKey}" async></script></body></html>`,
        { headers: { "content-type": "text/html; charset=utf-8" } },
      ),
  });
}

type Box = { x: number; y: number; width: number; height: number };
const overlaps = (a: Box, b: Box) =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

/** The boxes of every visible control (and status pill) inside the viewport, but for `except`. */
async function controlBoxes(on: Page, except: string): Promise<Array<Box & { what: string }>> {
  return on.evaluate((skip) => {
    const selector = "a[href], button, input, select, textarea, [role=button], [tabindex]:not([tabindex='-1']), .pill";
    const boxes: Array<{ x: number; y: number; width: number; height: number; what: string }> = [];
    for (const node of Array.from(document.querySelectorAll<HTMLElement>(selector))) {
      if (node.closest(skip)) continue;
      const r = node.getBoundingClientRect();
      if (
        r.width === 0 ||
        r.height === 0 ||
        r.bottom <= 0 ||
        r.top >= innerHeight ||
        r.right <= 0 ||
        r.left >= innerWidth
      )
        continue;
      if (getComputedStyle(node).visibility === "hidden") continue;
      const what = `${node.tagName.toLowerCase()} "${(node.getAttribute("aria-label") ?? node.textContent ?? "").trim().slice(0, 40)}"`;
      boxes.push({ x: r.x, y: r.y, width: r.width, height: r.height, what });
    }
    return boxes;
  }, except);
}

describe.skipIf(!ready.ok)("a new team's first week (Chromium against dist/desk)", () => {
  beforeAll(async () => {
    fake = await startFakeAi();
    fake.answer = () => ({ text: "OK." });
    desk = await startDeskBinary(fakeAiEnv(fake, { DESK_INBOUND_SECRET: INBOUND_SECRET }));
    ({ headers: asOwner } = await ownerWithWorkspace(desk.url, owner, "Week Co"));
    const workspace = await call(desk.url, "GET", "/v1/workspace", asOwner);
    widgetKey = workspace.body.widget_key;
    workspaceSlug = workspace.body.slug;
    site = customerSite();
    browser = await launchChromium();
    context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    page = await context.newPage();
    page.setDefaultTimeout(8000);
    await signIn(page, desk.url, owner);
  }, STEP);

  afterAll(async () => {
    await browser?.close();
    site?.stop(true);
    await desk?.stop();
    await fake?.stop();
  }, STEP);

  test(
    "on a phone the assistant button covers neither Send reply nor the inbox's controls and status pills",
    async () => {
      expect((await call(desk.url, "PATCH", "/v1/ai/settings", asOwner, { assistant: true })).status).toBe(200);
      const ticket = await call<{ number: number }>(desk.url, "POST", "/v1/tickets", asOwner, {
        subject: "Phone covered",
        contact: { email: "cora@customer.test", name: "Cora Cover" },
        body_html: "<p>Is anything covered?</p>",
      });
      for (let i = 0; i < 14; i++)
        await call(desk.url, "POST", "/v1/tickets", asOwner, {
          subject: `Filler ${i}`,
          contact: { email: `filler${i}@customer.test`, name: `Filler ${i}` },
          body_html: "<p>More work.</p>",
        });
      // Its own sign-in: a copied session would rotate the desktop page's refresh token away.
      const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
      const mobile = await phone.newPage();
      mobile.setDefaultTimeout(8000);
      try {
        await signIn(mobile, desk.url, owner);
        for (const path of ["/inbox/all", `/tickets/${ticket.body.number}`]) {
          await mobile.goto(`${desk.url}${path}`);
          if (path.startsWith("/tickets")) await shown(mobile.getByRole("button", { name: "Send reply" }));
          else await shown(mobile.locator(".ticket-row .pill").first());
          const fab = mobile.getByRole("button", { name: "Assistant" });
          await shown(fab);
          const fabBox = (await fab.boundingBox())!;
          const covered = (await controlBoxes(mobile, ".assistant-fab")).filter((b) => overlaps(b, fabBox));
          expect({ path, covered: covered.map((b) => b.what) }).toEqual({ path, covered: [] });
          // The button stays on screen and usable.
          expect(fabBox.x + fabBox.width).toBeLessThanOrEqual(390);
          expect(fabBox.y + fabBox.height).toBeLessThanOrEqual(844);
        }
        await mobile.getByRole("button", { name: "Assistant" }).click();
        await shown(mobile.getByRole("complementary", { name: "Assistant" }));
      } finally {
        await phone.close();
      }
    },
    STEP,
  );

  test(
    "an anonymous chat visitor is named after the page's host; the customer card shows page, browser and time zone",
    async () => {
      const visiting = await browser.newContext({ viewport: { width: 1280, height: 800 }, timezoneId: "Asia/Tokyo" });
      try {
        const visitor = await visiting.newPage();
        visitor.setDefaultTimeout(8000);
        await visitor.goto(`http://localhost:${site.port}/pricing?coupon=secret#top`);
        await visitor.getByRole("button", { name: "Open chat" }).click();
        const box = visitor.getByRole("textbox", { name: "Message" });
        await shown(box);
        await box.fill("Which plan has SSO?");
        await box.press("Enter");
        await shown(visitor.locator(".msg.in", { hasText: "Which plan has SSO?" }));
      } finally {
        await visiting.close();
      }
      // A mail sender who gave no display name is called by their address's local part.
      const mailed = await call(desk.url, "POST", "/v1/tickets", asOwner, {
        subject: "Invoice copy",
        contact: { email: "nina.noname@customer.test" },
        body_html: "<p>Please resend my invoice.</p>",
      });
      expect(mailed.status).toBe(201);

      await page.goto(`${desk.url}/inbox/all`);
      const chatRow = page.locator(".ticket-row", { hasText: "Which plan has SSO?" });
      await shown(chatRow);
      expect(await chatRow.locator(".ticket-contact").textContent()).toBe("Visitor from localhost");
      const mailRow = page.locator(".ticket-row", { hasText: "Invoice copy" });
      expect(await mailRow.locator(".ticket-contact").textContent()).toBe("nina.noname");

      await chatRow.locator(".ticket-main").click();
      const card = page.locator(".contact-card");
      await shown(card.getByRole("link", { name: "Visitor from localhost" }));
      const visit = card.getByRole("definition");
      await shown(visit.first());
      const details = (await card.locator(".visit-details").textContent()) ?? "";
      // The page without its query or fragment (they may carry the site's own tokens).
      expect(details).toContain(`http://localhost:${site.port}/pricing`);
      expect(details).not.toContain("secret");
      expect(details).toMatch(/Chrome \d+ on Linux/);
      expect(details).toContain("Asia/Tokyo");
    },
    STEP,
  );

  test(
    "every visitor can search articles in the widget; every help-center page offers Contact us, which opens the chat",
    async () => {
      await call(desk.url, "PATCH", "/v1/workspace", asOwner, { settings: { help_center_enabled: true } });
      const collection = await call(desk.url, "POST", "/v1/kb/collections", asOwner, { name: "Billing" });
      await call(desk.url, "POST", "/v1/kb/articles", asOwner, {
        collection_id: collection.body.id,
        title: "Get a refund",
        status: "published",
        body_html: "<p>Ask for a refund within 30 days.</p>",
      });
      // A first-time visitor (nothing stored): search and the help center link are there before any chat.
      const fresh = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
      try {
        const visitor = await fresh.newPage();
        visitor.setDefaultTimeout(8000);
        await visitor.goto(`http://127.0.0.1:${site.port}/`);
        await visitor.getByRole("button", { name: "Open chat" }).click();
        const search = visitor.getByRole("searchbox", { name: "Search help articles" });
        await shown(search);
        await shown(visitor.getByRole("link", { name: "Help center" }));
        await search.fill("refund");
        await search.press("Enter");
        const result = visitor.getByRole("link", { name: "Get a refund" });
        await shown(result);
        expect(await result.getAttribute("href")).toBe(`${desk.url}/help/${workspaceSlug}/articles/get-a-refund`);
        // iOS zooms into text fields under 16 px.
        const message = visitor.getByRole("textbox", { name: "Message" });
        expect(await message.evaluate((t) => Number.parseFloat(getComputedStyle(t).fontSize))).toBeGreaterThanOrEqual(
          16,
        );
        expect(await search.evaluate((t) => Number.parseFloat(getComputedStyle(t).fontSize))).toBeGreaterThanOrEqual(
          16,
        );
      } finally {
        await fresh.close();
      }

      // The help center: "Contact us" on every page, opening the workspace's widget right there.
      const reader = await browser.newContext({ viewport: { width: 1280, height: 800 } });
      try {
        const help = await reader.newPage();
        help.setDefaultTimeout(8000);
        const violations: string[] = [];
        help.on("console", (m) => {
          if (/Content Security Policy/i.test(m.text())) violations.push(m.text());
        });
        for (const path of ["", "/collections/billing", "/articles/get-a-refund", "/search?q=refund"]) {
          await help.goto(`${desk.url}/help/${workspaceSlug}${path}`);
          await shown(help.getByRole("link", { name: "Contact us" }));
        }
        await help.getByRole("link", { name: "Contact us" }).click();
        await shown(help.getByRole("dialog", { name: "Chat with Week Co" }));
        await shown(help.getByRole("textbox", { name: "Message" }));
        expect(violations).toEqual([]);
      } finally {
        await reader.close();
      }
    },
    STEP,
  );

  test(
    "an invitation says it was not emailed without a relay, offers Copy link and Resend, and reads 'as an agent'",
    async () => {
      await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: desk.url });
      await page.goto(`${desk.url}/settings/members`);
      await page.getByLabel("Email").fill("ivan@first-week.test");
      await page.getByLabel("Role").selectOption("agent");
      await page.getByRole("button", { name: "Send invitation" }).click();
      const banner = page.getByRole("status").filter({ hasText: "ivan@first-week.test" });
      await shown(banner);
      const said = (await banner.textContent()) ?? "";
      expect(said).toContain("Not emailed to ivan@first-week.test (an agent): no mail relay is configured");
      expect(said).not.toContain("also emailed");
      const url = ((await banner.locator("code").textContent()) ?? "").trim();
      expect(url).toMatch(new RegExp(`^${desk.url}/invite/inv_`));
      await banner.getByRole("button", { name: "Copy link" }).click();
      await shown(banner.getByText("Copied."));
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(url);

      // The pending row: a readable expiry, and its own Copy link and Resend.
      const row = page.getByRole("row", { name: /ivan@first-week\.test/ });
      await shown(row);
      expect(await row.locator("time").textContent()).toBe("in 7 days");
      expect(await row.locator("time").getAttribute("title")).not.toMatch(/\d{4}-\d{2}-\d{2}T/);
      await page.evaluate(() => navigator.clipboard.writeText(""));
      await row.getByRole("button", { name: "Copy link for ivan@first-week.test" }).click();
      await shown(page.getByRole("status").filter({ hasText: "Invitation link for ivan@first-week.test" }));
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(url);
      await row.getByRole("button", { name: "Resend to ivan@first-week.test" }).click();
      await shown(page.getByRole("status").filter({ hasText: "Not emailed to ivan@first-week.test" }));

      // The person invited reads a sentence, not "as agent" or "as a agent".
      const guest = await browser.newContext();
      try {
        const invited = await guest.newPage();
        await invited.goto(url);
        await shown(invited.getByText("as an agent."));
      } finally {
        await guest.close();
      }
    },
    STEP,
  );

  test(
    "the widget's unread badge survives a reload",
    async () => {
      const visiting = await browser.newContext({ viewport: { width: 1280, height: 800 } });
      try {
        const visitor = await visiting.newPage();
        visitor.setDefaultTimeout(8000);
        await visitor.goto(`http://127.0.0.1:${site.port}/`);
        await visitor.getByRole("button", { name: "Open chat" }).click();
        const box = visitor.getByRole("textbox", { name: "Message" });
        await shown(box);
        await box.fill("Badge me when you answer");
        await box.press("Enter");
        await shown(visitor.locator(".msg.in", { hasText: "Badge me" }));
        await visitor.getByRole("button", { name: "Close chat" }).click();
        const list = await call<{ data: Array<{ id: string; subject: string }> }>(
          desk.url,
          "GET",
          "/v1/tickets",
          asOwner,
        );
        const ticket = list.body.data.find((t) => t.subject.includes("Badge me"))!;
        const reply = await call(desk.url, "POST", `/v1/tickets/${ticket.id}/messages`, asOwner, {
          kind: "reply",
          body_html: "<p>Answered!</p>",
        });
        expect(reply.status).toBe(201);
        await shown(visitor.getByRole("button", { name: "Open chat, 1 unread" }));
        // Opening the chat clears the badge, across reloads too, even when the visitor opens and closes
        // it before the reloaded page has loaded the conversations (held back here, so that always happens).
        await visitor.route("**/v1/widget/conversations**", async (route) => {
          await new Promise((resolve) => setTimeout(resolve, 1500));
          await route.continue().catch(() => undefined);
        });
        await visitor.reload();
        await shown(visitor.getByRole("button", { name: "Open chat, 1 unread" }));
        await visitor.getByRole("button", { name: "Open chat, 1 unread" }).click();
        await visitor.getByRole("button", { name: "Close chat" }).click();
        await visitor.unrouteAll({ behavior: "ignoreErrors" });
        // The reloaded page asks for the conversations (replies sent while away raise the badge): judge the
        // badge once that answer is in, not before (it would pass by reading the launcher too early).
        const conversations = visitor.waitForResponse(
          (r) => r.url().includes("/v1/widget/conversations") && r.request().method() === "GET",
          { timeout: 20_000 },
        );
        await visitor.reload();
        await conversations;
        await new Promise((resolve) => setTimeout(resolve, 300));
        await shown(visitor.getByRole("button", { name: "Open chat", exact: true }), 20_000);
      } finally {
        await visiting.close();
      }
    },
    STEP,
  );

  test(
    "on a touch phone: no keyboard hints, and the setup checklist is folded to its heading",
    async () => {
      const ticket = await call<{ number: number }>(desk.url, "POST", "/v1/tickets", asOwner, {
        subject: "Touch screen",
        contact: { email: "tess@customer.test", name: "Tess Touch" },
        body_html: "<p>Typing with thumbs.</p>",
      });
      const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
      const mobile = await phone.newPage();
      mobile.setDefaultTimeout(8000);
      try {
        await signIn(mobile, desk.url, owner);
        const checklist = mobile.getByRole("region", { name: "Get started with Desk" });
        await shown(checklist);
        expect((await checklist.boundingBox())!.height).toBeLessThan(844 / 5);
        expect(await mobile.locator("#onboarding-steps").isVisible()).toBe(false);
        await checklist.getByRole("button", { name: "Show steps" }).click();
        expect(await mobile.locator("#onboarding-steps").isVisible()).toBe(true);

        await mobile.goto(`${desk.url}/tickets/${ticket.body.number}`);
        await shown(mobile.getByRole("button", { name: "Send reply" }));
        const visibleKbd = await mobile
          .locator("kbd")
          .evaluateAll((all) => all.filter((k) => (k as HTMLElement).offsetParent !== null).map((k) => k.textContent));
        expect(visibleKbd).toEqual([]);
      } finally {
        await phone.close();
      }
      // With a mouse the hints stay.
      await page.goto(`${desk.url}/tickets/${ticket.body.number}`);
      await shown(page.getByRole("button", { name: "Send reply" }));
      expect(await page.locator("kbd").first().isVisible()).toBe(true);
    },
    STEP,
  );

  test(
    "an inline cid: image shows once, in the message, and is not listed again among its files",
    async () => {
      const mailbox = await call(desk.url, "POST", "/v1/mailboxes", asOwner, {
        name: "Support",
        email: "support@first-week.test",
        inbound_kind: "forwarding",
        outbound_kind: "system",
      });
      expect(mailbox.status).toBe(201);
      const raw = [
        "From: Lola Logo <lola@sender.test>",
        "To: support@first-week.test",
        "Subject: Logo and invoice",
        "Message-ID: <logo-1@sender.test>",
        "MIME-Version: 1.0",
        'Content-Type: multipart/mixed; boundary="m1"',
        "",
        "--m1",
        'Content-Type: multipart/related; boundary="b1"',
        "",
        "--b1",
        "Content-Type: text/html; charset=utf-8",
        "",
        '<p>Our logo: <img src="cid:logo@mail" alt="inline logo"></p>',
        "--b1",
        "Content-Type: image/png",
        "Content-Transfer-Encoding: base64",
        "Content-ID: <logo@mail>",
        "Content-Disposition: inline; filename=logo.png",
        "",
        PNG.toString("base64"),
        "--b1--",
        "--m1",
        "Content-Type: application/pdf",
        "Content-Transfer-Encoding: base64",
        "Content-Disposition: attachment; filename=invoice.pdf",
        "",
        Buffer.from("%PDF-1.4\n%%EOF\n").toString("base64"),
        "--m1--",
        "",
      ].join("\r\n");
      const inbound = await fetch(`${desk.url}/v1/inbound/email?to=support@first-week.test`, {
        method: "POST",
        headers: { "desk-inbound-secret": INBOUND_SECRET, "content-type": "message/rfc822" },
        body: raw,
      });
      expect(inbound.status).toBe(202);
      let number = 0;
      for (let i = 0; i < 80 && !number; i++) {
        const found = await call(desk.url, "GET", "/v1/tickets?q=invoice", asOwner);
        number = found.body.data.find((t: { subject: string }) => t.subject === "Logo and invoice")?.number ?? 0;
        if (!number) await Bun.sleep(100);
      }
      await page.goto(`${desk.url}/tickets/${number}`);
      const message = page.locator("article.msg", { hasText: "Our logo" });
      await shown(message.locator('img[alt="inline logo"]'));
      await shown(message.locator(".uploads", { hasText: "invoice.pdf" }));
      expect(await message.locator(".uploads a").allInnerTexts()).toEqual([expect.stringContaining("invoice.pdf")]);
      expect(await message.locator("img").count()).toBe(1);
    },
    STEP,
  );

  test(
    "a saved reply can be edited: title, shortcut and text",
    async () => {
      const created = await call<{ id: string }>(desk.url, "POST", "/v1/saved-replies", asOwner, {
        title: "Greating",
        shortcut: "hi",
        body_html: "<p>Helo {{contact.first_name}}</p>",
      });
      expect(created.status).toBe(201);
      await page.goto(`${desk.url}/settings/saved-replies`);
      await page.getByRole("button", { name: "Edit Greating" }).click();
      const dialog = page.getByRole("dialog", { name: "Edit saved reply" });
      await shown(dialog);
      expect(await dialog.getByLabel("Text").inputValue()).toBe("Helo {{contact.first_name}}");
      await dialog.getByLabel("Title").fill("Greeting");
      await dialog.getByLabel("Shortcut").fill("hello");
      await dialog.getByLabel("Text").fill("Hello {{contact.first_name}},\n\nThanks for writing.");
      await dialog.getByRole("button", { name: "Save" }).click();
      await shown(page.getByRole("row", { name: /Greeting/ }));
      expect(await dialog.isVisible()).toBe(false);
      const stored = await call(desk.url, "GET", `/v1/saved-replies/${created.body.id}`, asOwner);
      expect(stored.body).toMatchObject({
        title: "Greeting",
        shortcut: "hello",
        body_html: "<p>Hello {{contact.first_name}},</p><p>Thanks for writing.</p>",
      });
    },
    STEP,
  );

  test(
    "the contact page picks the contact's company, and clears it",
    async () => {
      const company = await call<{ id: string }>(desk.url, "POST", "/v1/companies", asOwner, {
        name: "Zenith Widgets",
      });
      expect(company.status).toBe(201);
      const contact = await call<{ id: string }>(desk.url, "POST", "/v1/contacts", asOwner, {
        email: "cody@zenith.test",
        name: "Cody Company",
      });
      await page.goto(`${desk.url}/contacts/${contact.body.id}`);
      await shown(page.getByRole("heading", { name: "Cody Company" }));
      const picker = page.getByLabel("Company", { exact: true });
      await picker.selectOption({ label: "Zenith Widgets" });
      await shown(page.locator(".page-head").getByRole("link", { name: "Zenith Widgets" }));
      const stored = async () =>
        (await call<{ company: { id: string } | null }>(desk.url, "GET", `/v1/contacts/${contact.body.id}`, asOwner))
          .body.company?.id ?? null;
      expect(await stored()).toBe(company.body.id);
      await picker.selectOption({ label: "No company" });
      await page.locator(".page-head").getByRole("link", { name: "Zenith Widgets" }).waitFor({ state: "detached" });
      expect(await stored()).toBeNull();
    },
    STEP,
  );

  test(
    "the inbox shows what is new to this person, and the tab title counts the waiting work",
    async () => {
      const make = async (subject: string) =>
        (
          await call<{ id: string; number: number }>(desk.url, "POST", "/v1/tickets", asOwner, {
            subject,
            contact: { email: "rhea@customer.test", name: "Rhea Reader" },
            body_html: "<p>Read me.</p>",
          })
        ).body;
      const opened = await make("Read state one");
      await make("Read state two");
      const counts = await call<{ unassigned: number; mine: number }>(desk.url, "GET", "/v1/tickets/counts", asOwner);
      await page.goto(`${desk.url}/inbox/all`);
      const row = (subject: string) => page.locator(".ticket-row", { hasText: subject });
      await shown(row("Read state one"));
      await shown(row("Read state one").and(page.locator("[data-unread]")));
      expect(await page.title()).toBe(`(${counts.body.unassigned + counts.body.mine}) Inbox · Desk`);

      await row("Read state one").locator(".ticket-main").click();
      await shown(page.getByRole("heading", { name: /Read state one/ }));
      expect(await page.title()).toMatch(/^\(\d+\) Ticket · Desk$/);
      await page.goBack();
      await shown(row("Read state two").and(page.locator("[data-unread]")));
      await row("Read state one").and(page.locator(":not([data-unread])")).waitFor();
      expect(await row("Read state one").locator(".visually-hidden").count()).toBe(0);
      // Stored per person on the server: a reload keeps it.
      await page.reload();
      await shown(row("Read state two").and(page.locator("[data-unread]")));
      await row("Read state one").and(page.locator(":not([data-unread])")).waitFor();

      // New activity makes it unread again.
      const reply = await call(desk.url, "POST", `/v1/tickets/${opened.id}/messages`, asOwner, {
        kind: "reply",
        body_html: "<p>Another word.</p>",
      });
      expect(reply.status).toBe(201);
      await shown(row("Read state one").and(page.locator("[data-unread]")));
    },
    STEP,
  );
});
