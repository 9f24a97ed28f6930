/**
 * Outbound conversations in a real browser against dist/desk, with real SMTP both ways: the
 * mailbox sends through Postfix's smtp-sink, and the customer's answers come back through Desk's
 * own SMTP receiver. "New ticket" mails its first reply from the default mailbox and the answer
 * threads back into the ticket; a reply goes out with Cc (a header) and Bcc (the envelope only),
 * picked through the recipients combobox; a forward reaches a third party and shows on the
 * timeline as a forward; a ticket that cannot mail says so in the composer.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Browser, Page } from "playwright-core";
import { freePort } from "../peers/dovecot";
import { sendRawSmtp } from "../peers/smtp-send";
import { type SmtpSink, startSmtpSink } from "../peers/smtp-sink";
import {
  browserTestsReady,
  call,
  eventually,
  launchChromium,
  ownerWithWorkspace,
  type RunningDesk,
  shown,
  signIn,
  startDeskBinary,
} from "./browser";

const ready = browserTestsReady();

const STEP = 45_000;
const owner = { name: "Olivia Owner", email: "olivia@outbound.test", password: "correct horse battery" };

describe.skipIf(!ready.ok)("outbound mail from the web app (Chromium against dist/desk, real SMTP)", () => {
  let desk: RunningDesk;
  let sink: SmtpSink;
  let smtpPort = 0;
  let browser: Browser;
  let page: Page;
  let headers: Record<string, string> = {};
  let ticketNumber = 0;
  let ticketId = "";

  /** The sent mail whose headers match `pattern`, once it reached the sink. */
  async function sentMatching(pattern: RegExp, timeout = 15_000): Promise<string> {
    const deadline = Date.now() + timeout;
    for (;;) {
      const found = sink.messages().find((m) => pattern.test(m.split(/\r?\n\r?\n/)[0]!));
      if (found) return found;
      if (Date.now() > deadline) throw new Error(`no sent mail matches ${pattern}`);
      await Bun.sleep(100);
    }
  }
  const head = (raw: string) => raw.split(/\r?\n\r?\n/)[0]!;
  const messageIdOf = (raw: string) => /^Message-ID: (<[^>]+>)/im.exec(head(raw))![1]!;

  /** A customer's answer to one of our mails, through Desk's SMTP receiver. */
  async function answer(from: string, inReplyTo: string, subject: string, body: string) {
    const raw = [
      `From: ${from}`,
      "To: support@acme.test",
      `Subject: ${subject}`,
      `Message-ID: <${crypto.randomUUID()}@customer.test>`,
      `In-Reply-To: ${inReplyTo}`,
      `References: ${inReplyTo}`,
      "MIME-Version: 1.0",
      "Content-Type: text/plain; charset=utf-8",
      "",
      body,
      "",
    ].join("\r\n");
    const address = /<([^>]+)>/.exec(from)![1]!;
    const replies = await sendRawSmtp(smtpPort, new TextEncoder().encode(raw), {
      from: address,
      to: ["support@acme.test"],
    });
    expect(replies.at(-2)?.code).toBe(250);
  }

  beforeAll(async () => {
    sink = await startSmtpSink();
    smtpPort = await freePort();
    desk = await startDeskBinary({
      DESK_SMTP_PORT: String(smtpPort),
      DESK_INBOUND_DOMAIN: "desk.test",
      DESK_ALLOWED_PRIVATE_HOSTS: "127.0.0.1",
    });
    browser = await launchChromium();
    page = await (await browser.newContext({ viewport: { width: 1360, height: 900 } })).newPage();
    page.setDefaultTimeout(10_000);
    ({ headers } = await ownerWithWorkspace(desk.url, owner, "Acme"));
    const mailbox = await call(desk.url, "POST", "/v1/mailboxes", headers, {
      name: "Support",
      email: "support@acme.test",
      display_name: "Acme Support",
      outbound_kind: "smtp",
      config: { smtp_host: "127.0.0.1", smtp_port: sink.port, smtp_tls: "none" },
    });
    expect(mailbox.status).toBe(201);
    // A known contact for the recipients' suggestions.
    const boss = await call(desk.url, "POST", "/v1/contacts", headers, {
      name: "Bea Boss",
      email: "bea@customer.test",
    });
    expect(boss.status).toBe(201);
    await signIn(page, desk.url, owner);
  }, STEP);

  afterAll(async () => {
    await browser?.close();
    await desk?.stop();
    await sink?.stop();
  }, STEP);

  test(
    "New ticket mails its first reply from the default mailbox; the customer's answer threads back into it",
    async () => {
      await page.getByRole("button", { name: "New ticket" }).click();
      const dialog = page.getByRole("dialog");
      await shown(dialog);
      const from = dialog.getByLabel("From");
      // The default mailbox is picked as soon as the senders load.
      const picked = async () => (await from.locator("option:checked").textContent()) ?? "";
      expect(await eventually(async () => (await picked()).includes("support@acme.test"), true)).toBe(true);
      expect(await dialog.getByLabel("Message kind").locator("option:checked").textContent()).toContain("Reply");
      await dialog.getByLabel("Customer email").fill("carol@customer.test");
      await dialog.getByLabel("Customer name").fill("Carol");
      await dialog.getByLabel("Subject").fill("Your renewal");
      await dialog.getByLabel("First message").fill("Hello Carol,\n\nyour plan renews next week.");
      await dialog.getByRole("button", { name: "Create ticket" }).click();
      await page.waitForURL(/\/tickets\/\d+/);
      ticketNumber = Number(/\/tickets\/(\d+)/.exec(page.url())![1]);
      const ticket = await call(desk.url, "GET", `/v1/tickets/${ticketNumber}`, headers);
      expect(ticket.body).toMatchObject({ channel: "email" });
      ticketId = ticket.body.id;

      const first = await sentMatching(new RegExp(`Subject: Your renewal \\[#${ticketNumber}\\]`));
      expect(head(first)).toContain("To: carol@customer.test");
      expect(head(first)).toContain("From: Acme Support <support@acme.test>");
      await shown(page.locator(".msg .delivery-sent"));

      await answer(
        "Carol <carol@customer.test>",
        messageIdOf(first),
        `Re: Your renewal [#${ticketNumber}]`,
        "Can I pay yearly?",
      );
      await shown(page.locator(".msg-inbound", { hasText: "Can I pay yearly?" }));
      const tickets = await call(desk.url, "GET", "/v1/tickets", headers);
      expect(tickets.body.data).toHaveLength(1);
    },
    STEP,
  );

  test(
    "a reply with Cc and Bcc from the combobox: Cc in the headers, Bcc only in the envelope; the answer is quoted",
    async () => {
      await page.getByRole("button", { name: "Cc/Bcc" }).click();
      const cc = page.getByRole("combobox", { name: "Cc", exact: true });
      await cc.fill("bea");
      await shown(page.getByRole("listbox", { name: "Cc suggestions", exact: true }));
      await shown(page.getByRole("option", { name: /Bea Boss/ }));
      await cc.press("ArrowDown");
      await cc.press("Enter");
      await shown(page.getByRole("button", { name: "Remove bea@customer.test from Cc" }));
      const bcc = page.getByRole("combobox", { name: "Bcc" });
      await bcc.fill("not an address");
      await bcc.press("Enter");
      await shown(page.getByRole("alert").filter({ hasText: "is not an email address" }));
      await bcc.fill("audit@acme.test");
      await bcc.press("Enter");
      await page.getByRole("textbox", { name: "Reply" }).fill("Yes, you can.\n\nJust say so.");
      await page.getByRole("button", { name: "Send reply" }).click();

      const sent = await sentMatching(/X-Rcpt-Args: <audit@acme\.test>/);
      const h = head(sent);
      expect(h).toContain("X-Rcpt-Args: <carol@customer.test>");
      expect(h).toContain("X-Rcpt-Args: <bea@customer.test>");
      expect(h).toContain("Cc: bea@customer.test");
      expect(h).not.toMatch(/^Bcc:/im);
      // Past smtp-sink's envelope lines the message itself never names the blind copy.
      expect(sent.slice(sent.indexOf("\nFrom:"))).not.toContain("audit@acme.test");
      expect(h).toMatch(/In-Reply-To: <[^>]+@customer\.test>/);
      expect(sent).toMatch(/Carol <carol@customer\.test> wrote:/);
      expect(sent).toContain("> Can I pay yearly?");
      const reply = page.locator(".msg-outbound", { hasText: "Just say so." });
      await shown(reply);
      expect(await reply.locator(".msg-recipients").textContent()).toBe("Cc: bea@customer.testBcc: audit@acme.test");
    },
    STEP,
  );

  test(
    "Forward: the conversation reaches a third party and shows on the timeline as a forward",
    async () => {
      await page.getByRole("tab", { name: "Forward" }).click();
      await page.getByRole("combobox", { name: "To" }).fill("vendor@parts.test");
      await page.getByRole("combobox", { name: "To" }).press("Enter");
      await page.getByRole("textbox", { name: "Forward note (optional)" }).fill("Can you check this renewal?");
      await page.getByRole("button", { name: "Forward", exact: true }).click();

      const sent = await sentMatching(/To: vendor@parts\.test/);
      const h = head(sent);
      expect(h).toContain(`Subject: Fwd: Your renewal [#${ticketNumber}]`);
      expect(h).not.toContain("carol@customer.test");
      expect(sent).toContain("Forwarded conversation");
      expect(sent).toContain("Can I pay yearly?");
      const forward = page.locator(".msg-forward");
      await shown(forward);
      expect(await forward.locator(".tag-forward").textContent()).toBe("Forwarded to vendor@parts.test");

      // The vendor's answer threads into the ticket too.
      await answer(
        "Vendor <vendor@parts.test>",
        messageIdOf(sent),
        `Re: Fwd: Your renewal [#${ticketNumber}]`,
        "Looks fine.",
      );
      await shown(page.locator(".msg-inbound", { hasText: "Looks fine." }));
      const messages = await call(desk.url, "GET", `/v1/tickets/${ticketId}/messages`, headers);
      expect(messages.body.data.filter((m: { forward: boolean }) => m.forward)).toHaveLength(1);
    },
    STEP,
  );

  test(
    "a ticket that cannot mail says so in the composer",
    async () => {
      const quiet = await call(desk.url, "POST", "/v1/tickets", headers, {
        subject: "Kept in Desk",
        channel: "api",
        contact: { email: "dora@customer.test" },
      });
      expect(quiet.status).toBe(201);
      await page.goto(`${desk.url}/tickets/${quiet.body.number}`);
      const notice = page.getByTestId("composer-mail-notice");
      await shown(notice);
      expect(await notice.textContent()).toContain("not emailed");
      // An email ticket whose contact has no address cannot mail either.
      const ned = await call(desk.url, "POST", "/v1/contacts", headers, { name: "Ned Nomail" });
      expect(ned.status).toBe(201);
      const unreachable = await call(desk.url, "POST", "/v1/tickets", headers, {
        subject: "Phone call",
        channel: "email",
        contact_id: ned.body.id,
      });
      expect(unreachable.status).toBe(201);
      await page.goto(`${desk.url}/tickets/${unreachable.body.number}`);
      await shown(notice);
      expect(await notice.textContent()).toContain("no email address");
      await page.goto(`${desk.url}/tickets/${ticketNumber}`);
      await shown(page.getByRole("textbox", { name: "Reply" }));
      expect(await page.getByTestId("composer-mail-notice").count()).toBe(0);
    },
    STEP,
  );
});
