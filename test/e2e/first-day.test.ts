/**
 * A new team's first day in a real browser against dist/desk: a contact page opened from a
 * ticket, a page that fails to render, Esc and back, "Send and set", the activity log's names,
 * saved replies with placeholders and shortcuts, and the inbox and ticket on a phone.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Browser, BrowserContext, Page } from "playwright-core";
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

const STEP = 30_000;
const owner = { name: "Olivia Owner", email: "olivia@first-day.test", password: "correct horse battery" };
let desk: RunningDesk;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let asOwner: Record<string, string> = {};
let ownerId = "";

type Ticket = { id: string; number: number; status: string; contact: { id: string } };
const createTicket = async (subject: string, contact: { email: string; name: string }): Promise<Ticket> => {
  const res = await call<Ticket>(desk.url, "POST", "/v1/tickets", asOwner, {
    subject,
    contact,
    body_html: `<p>${subject}: please help.</p>`,
    kind: "reply",
  });
  expect(res.status).toBe(201);
  return res.body;
};
const messagesOf = async (ticketId: string): Promise<Array<{ kind: string; body_text: string }>> => {
  const res = await call(desk.url, "GET", `/v1/tickets/${ticketId}/messages`, asOwner);
  return Array.isArray(res.body) ? res.body : res.body.data;
};

describe.skipIf(!ready.ok)("a new team's first day (Chromium against dist/desk)", () => {
  beforeAll(async () => {
    desk = await startDeskBinary();
    ({ userId: ownerId, headers: asOwner } = await ownerWithWorkspace(desk.url, owner, "Acme Support"));
    browser = await launchChromium();
    context = await browser.newContext({ viewport: { width: 1360, height: 820 } });
    page = await context.newPage();
    page.setDefaultTimeout(8000);
    await signIn(page, desk.url, owner);
  }, STEP);

  afterAll(async () => {
    await browser?.close();
    await desk?.stop();
  }, STEP);

  test(
    "a contact page opened from a ticket's sidebar shows the contact and their tickets",
    async () => {
      const first = await createTicket("Printer on fire", { email: "carla@customer.test", name: "Carla Customer" });
      await createTicket("Printer still on fire", { email: "carla@customer.test", name: "Carla Customer" });
      // Contact page first (its record is then cached), on to a ticket in the app, back through the sidebar.
      await page.goto(`${desk.url}/contacts/${first.contact.id}`);
      await shown(page.getByRole("heading", { name: "Carla Customer" }));
      await page
        .locator(".detail-page .mini-list")
        .getByRole("link", { name: /Printer on fire/ })
        .click();
      await shown(page.getByRole("heading", { name: /Printer on fire/ }));
      // The sidebar lists the contact's other tickets (and so fills the shared cache entry).
      await shown(page.locator(".contact-card .mini-list li", { hasText: "Printer still on fire" }));
      await page.locator(".contact-card").getByRole("link", { name: "Carla Customer" }).click();
      await page.waitForURL(new RegExp(`/contacts/${first.contact.id}$`));
      await shown(page.getByRole("heading", { name: "Carla Customer" }));
      await shown(page.locator(".detail-page .mini-list li", { hasText: "Printer on fire" }));
      expect(
        await page.locator(".detail-page").getByRole("list", { name: "Tickets" }).getByRole("listitem").count(),
      ).toBe(2);
      expect(await page.getByTestId("page-error").count()).toBe(0);
    },
    STEP,
  );

  test(
    "a page that fails to render shows an error with a way back, never a white screen",
    async () => {
      const ticket = await createTicket("Broken contact", { email: "broken@customer.test", name: "Bea Broken" });
      // An answer of the wrong shape makes the contact page throw while rendering.
      await page.route(`**/v1/contacts/${ticket.contact.id}`, (route) =>
        route.fulfill({
          status: 200,
          contentType: "application/json",
          body: JSON.stringify({ id: ticket.contact.id, name: "Bea Broken" }),
        }),
      );
      await page.goto(`${desk.url}/contacts/${ticket.contact.id}`);
      await shown(page.getByTestId("page-error"));
      expect(await page.getByTestId("page-error").textContent()).toContain("This page could not be shown");
      // The navigation still works, and the way back leads to the inbox.
      await shown(page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Contacts" }));
      await page.getByRole("link", { name: "Back to the inbox" }).click();
      await page.waitForURL(/\/inbox\/unassigned$/);
      await shown(page.getByRole("heading", { name: "Unassigned" }));
      await page.unroute(`**/v1/contacts/${ticket.contact.id}`);
    },
    STEP,
  );

  test(
    "Esc closes only the open dialog or picker; ← from a ticket opened from a link stays in Desk",
    async () => {
      const ticket = await createTicket("Esc and back", { email: "eve@customer.test", name: "Eve Escape" });
      // Opened from a link: the tab's history has a page before Desk.
      const linked = await context.newPage();
      await linked.goto("about:blank");
      await linked.goto(`${desk.url}/tickets/${ticket.number}`);
      await shown(linked.getByRole("heading", { name: /Esc and back/ }));
      await linked.getByRole("button", { name: "Back (Esc)" }).click();
      await linked.waitForURL(/\/inbox\/unassigned$/);
      expect(linked.url()).toStartWith(desk.url);
      await linked.close();

      await page.goto(`${desk.url}/inbox/all`);
      await page.locator(".ticket-row", { hasText: "Esc and back" }).locator(".ticket-main").click();
      await shown(page.getByRole("heading", { name: /Esc and back/ }));
      const ticketUrl = page.url();
      // The keyboard help dialog: Esc closes it and the ticket stays open.
      await page.locator("body").click({ position: { x: 5, y: 400 } });
      await page.keyboard.press("?");
      await shown(page.getByRole("dialog", { name: "Keyboard shortcuts" }));
      await page.keyboard.press("Escape");
      expect(await eventually(() => page.getByRole("dialog").count(), 0)).toBe(0);
      await page.waitForTimeout(200);
      expect(page.url()).toBe(ticketUrl);
      // The label picker: Esc closes the picker only.
      await page.getByRole("button", { name: "+ Label" }).click();
      await shown(page.getByLabel("Label name"));
      await page.keyboard.press("Escape");
      expect(await eventually(() => page.getByLabel("Label name").count(), 0)).toBe(0);
      expect(page.url()).toBe(ticketUrl);
      // The merge dialog: Esc closes it, the ticket stays.
      await page.getByRole("button", { name: "Merge…" }).click();
      await shown(page.getByRole("dialog"));
      await page.keyboard.press("Escape");
      expect(await eventually(() => page.getByRole("dialog").count(), 0)).toBe(0);
      expect(page.url()).toBe(ticketUrl);
      // With nothing open, Esc goes back to the list the ticket was opened from.
      await page.locator("body").click({ position: { x: 5, y: 400 } });
      await page.keyboard.press("Escape");
      await page.waitForURL(/\/inbox\/all$/);
    },
    STEP,
  );

  test(
    "choosing 'Send and set pending' only selects it; the button sends; the log names the assignee",
    async () => {
      const ticket = await createTicket("Send and set", { email: "sam@customer.test", name: "Sam Sender" });
      expect(
        (await call(desk.url, "PATCH", `/v1/tickets/${ticket.id}`, asOwner, { assignee_id: ownerId })).status,
      ).toBe(200);
      await page.goto(`${desk.url}/tickets/${ticket.number}`);
      await shown(page.getByRole("heading", { name: /Send and set/ }));
      // The activity log names the person, not their id.
      await shown(page.locator(".activity", { hasText: `assigned to ${owner.name}` }));
      expect(await page.locator(".timeline").textContent()).not.toContain(ownerId);

      await page.getByLabel("Reply", { exact: true }).fill("We are looking into it.");
      await page.getByLabel("Send and set status").selectOption({ label: "Send and set pending" });
      await page.waitForTimeout(500);
      expect((await messagesOf(ticket.id)).filter((m) => m.kind === "reply")).toHaveLength(1);
      expect(await page.getByLabel("Reply", { exact: true }).inputValue()).toBe("We are looking into it.");
      await page.getByRole("button", { name: "Send reply and set pending" }).click();
      await shown(page.locator(".msg-body", { hasText: "We are looking into it." }));
      expect(
        await eventually(
          async () => (await call(desk.url, "GET", `/v1/tickets/${ticket.id}`, asOwner)).body.status,
          "pending",
        ),
      ).toBe("pending");
      expect((await messagesOf(ticket.id)).filter((m) => m.kind === "reply")).toHaveLength(2);
    },
    STEP,
  );

  test(
    "saved replies fill in placeholders, flag unknown ones, and insert from a /shortcut",
    async () => {
      const created = await call(desk.url, "POST", "/v1/saved-replies", asOwner, {
        title: "Greeting",
        shortcut: "hello",
        body_html:
          "<p>Hi {{contact.first_name}}, this is {{ agent.name }} from {{workspace.name}} about #{{ticket.number}}.</p><p>Size: {{contact.shoe_size}}</p>",
      });
      expect(created.status).toBe(201);
      const ticket = await createTicket("Placeholders", { email: "pia@customer.test", name: "Pia Placeholder" });
      await page.goto(`${desk.url}/tickets/${ticket.number}`);
      await shown(page.getByRole("heading", { name: /Placeholders/ }));
      const reply = page.getByLabel("Reply", { exact: true });
      await reply.click();
      await page.keyboard.type("/hel");
      await shown(page.getByRole("listbox", { name: "Saved replies" }).getByRole("option", { name: /Greeting/ }));
      await page.keyboard.press("Enter");
      const text = await reply.inputValue();
      expect(text).toContain(`Hi Pia, this is ${owner.name} from Acme Support about #${ticket.number}.`);
      expect(text).not.toContain("/hel");
      // The unknown placeholder stays visible, is flagged, and blocks sending.
      expect(text).toContain("{{contact.shoe_size}}");
      await shown(page.locator(".placeholder-warning", { hasText: "{{contact.shoe_size}}" }));
      expect(await page.getByRole("button", { name: "Send reply" }).isDisabled()).toBe(true);
      await reply.press("Control+Enter");
      await page.waitForTimeout(300);
      expect(await messagesOf(ticket.id)).toHaveLength(1);

      await reply.fill(text.replace("{{contact.shoe_size}}", "42"));
      expect(await page.locator(".placeholder-warning").count()).toBe(0);
      await page.getByRole("button", { name: "Send reply" }).click();
      await shown(page.locator(".msg-body", { hasText: "Size: 42" }));
      const sent = (await messagesOf(ticket.id)).at(-1)!;
      expect(sent.body_text).toContain("Hi Pia, this is Olivia Owner from Acme Support");
      expect(sent.body_text).not.toContain("{{");

      // The saved-replies menu fills placeholders in too.
      await page.getByLabel("Insert saved reply").selectOption({ label: "Greeting (hello)" });
      expect(await reply.inputValue()).toContain("Hi Pia,");
    },
    STEP,
  );

  test(
    "on a phone the navigation is reachable, list → ticket → back works, and the composer fits",
    async () => {
      const ticket = await createTicket("Phone layout", { email: "phil@customer.test", name: "Phil Phone" });
      const phone = await browser.newContext({
        viewport: { width: 390, height: 844 },
        storageState: await context.storageState(),
        isMobile: true,
        hasTouch: true,
      });
      const mobile = await phone.newPage();
      mobile.setDefaultTimeout(8000);
      try {
        await mobile.goto(`${desk.url}/inbox/unassigned`);
        await shown(mobile.getByRole("heading", { name: "Unassigned" }));
        const menu = mobile.getByRole("button", { name: "Menu" });
        await shown(menu);
        await menu.click();
        const nav = mobile.getByRole("navigation", { name: "Main" });
        await shown(nav.getByRole("link", { name: "All tickets" }));
        await shown(nav.getByRole("link", { name: "Contacts" }));
        await nav.getByRole("link", { name: "All tickets" }).click();
        await shown(mobile.getByRole("heading", { name: "All tickets" }));
        expect(await nav.isVisible()).toBe(false);

        await mobile.locator(".ticket-row", { hasText: "Phone layout" }).locator(".ticket-main").click();
        await shown(mobile.getByRole("heading", { name: /Phone layout/ }));
        const conversation = await mobile.locator(".timeline-scroll").boundingBox();
        expect(conversation!.height).toBeGreaterThanOrEqual(300);
        const send = await mobile.getByRole("button", { name: "Send reply" }).boundingBox();
        expect(send!.x).toBeGreaterThanOrEqual(0);
        expect(send!.x + send!.width).toBeLessThanOrEqual(390);
        expect(send!.y + send!.height).toBeLessThanOrEqual(844);
        const reply = await mobile.getByLabel("Reply", { exact: true }).boundingBox();
        expect(reply!.x + reply!.width).toBeLessThanOrEqual(390);
        expect(await mobile.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);

        await mobile.getByLabel("Reply", { exact: true }).fill("Answered from a phone.");
        await mobile.getByRole("button", { name: "Send reply" }).click();
        await shown(mobile.locator(".msg-body", { hasText: "Answered from a phone." }));
        expect((await messagesOf(ticket.id)).some((m) => m.body_text.includes("Answered from a phone."))).toBe(true);

        await mobile.getByRole("button", { name: "Back (Esc)" }).click();
        await shown(mobile.getByRole("heading", { name: "All tickets" }));
      } finally {
        await phone.close();
      }
    },
    STEP,
  );
});
