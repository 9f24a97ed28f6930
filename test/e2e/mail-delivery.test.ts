/**
 * With default settings (no DESK_SMTP_URL) a system mailbox's replies are only written to the
 * outbox: the ticket timeline, the mailbox settings and the mailbox test must say so in a real
 * browser, never "sent" or "ok".
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Browser, Page } from "playwright-core";
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
const owner = { name: "Olivia Owner", email: "olivia@example.test", password: "correct horse battery" };

describe.skipIf(!ready.ok)("outbox-only delivery in the web app (Chromium against dist/desk)", () => {
  let desk: RunningDesk;
  let browser: Browser;
  let page: Page;
  let headers: Record<string, string> = {};
  let ticketNumber = 0;

  beforeAll(async () => {
    desk = await startDeskBinary();
    browser = await launchChromium();
    page = await (await browser.newContext({ viewport: { width: 1360, height: 820 } })).newPage();
    page.setDefaultTimeout(8000);
    ({ headers } = await ownerWithWorkspace(desk.url, owner, "Acme"));
    const mailbox = await call(desk.url, "POST", "/v1/mailboxes", headers, {
      name: "Help",
      email: "help@acme.test",
      inbound_kind: "forwarding",
      outbound_kind: "system",
    });
    expect(mailbox.body.outbound_via).toBe("outbox");
    const ticket = await call(desk.url, "POST", "/v1/tickets", headers, {
      subject: "Where is my order?",
      channel: "email",
      mailbox_id: mailbox.body.id,
      contact: { email: "carol@customer.test", name: "Carol" },
      kind: "reply",
      body_html: "<p>It ships today.</p>",
    });
    expect(ticket.status).toBe(201);
    ticketNumber = ticket.body.number;
    // The send job runs in the binary: wait until it has recorded the outcome.
    const via = async () =>
      (await call(desk.url, "GET", `/v1/tickets/${ticket.body.id}/messages`, headers)).body.data.find(
        (m: { kind: string }) => m.kind === "reply",
      )?.delivery_via ?? null;
    expect(await eventually(via, "outbox")).toBe("outbox");
    await signIn(page, desk.url, owner);
  }, STEP);

  afterAll(async () => {
    await browser?.close();
    await desk?.stop();
  }, STEP);

  test(
    "the ticket timeline marks the reply as not delivered, never as sent",
    async () => {
      await page.goto(`${desk.url}/tickets/${ticketNumber}`);
      const marker = page.locator(".delivery-outbox");
      await shown(marker);
      expect(await marker.textContent()).toBe("Not delivered: outbox only");
      expect(await marker.getAttribute("title")).toContain("DESK_SMTP_URL");
      expect(await page.locator(".delivery-sent").count()).toBe(0);
    },
    STEP,
  );

  test(
    "mailbox settings warn that replies are not delivered, and the test button does not claim delivery",
    async () => {
      await page.goto(`${desk.url}/settings/mailboxes`);
      const note = page.getByRole("note");
      await shown(note);
      expect(await note.textContent()).toContain("Replies from this mailbox are not delivered");
      await page.getByRole("button", { name: "Test connection" }).click();
      const result = page.getByRole("status").filter({ hasText: "Out:" });
      await shown(result);
      const text = (await result.textContent()) ?? "";
      expect(text).toContain("Out: not ok");
      expect(text).toContain("outbox");
      expect(text).not.toContain("Out: ok");
    },
    STEP,
  );
});
