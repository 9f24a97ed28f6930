/**
 * "Leave your email so we can reply even after you close this page", kept, in Chromium against
 * dist/desk with real SMTP peers: the admin picks the mailbox chat replies are mailed from (Settings
 * → Chat widget); a reply the visitor reads in the open widget is never mailed; once the visitor
 * has closed the page, the next reply reaches them by mail (smtp-sink) after DESK_CHAT_MAIL_DELAY;
 * their emailed answer (through Desk's SMTP receiver) shows in the same chat when they come back.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Browser, BrowserContext } from "playwright-core";
import { freePort } from "../peers/dovecot";
import { sendRawSmtp } from "../peers/smtp-send";
import { type SmtpSink, startSmtpSink } from "../peers/smtp-sink";
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
const STEP = 90_000;
/** Short here so the test does not wait the default 2 minutes; the rule is the same. */
const DELAY_MS = 4_000;

let desk: RunningDesk;
let browser: Browser;
let sink: SmtpSink;
let site: ReturnType<typeof Bun.serve>;
let smtpPort = 0;
const contexts: BrowserContext[] = [];
const owner = { name: "Mia Owner", email: "mia@chatmail.test", password: "correct horse battery" };
let headers: Record<string, string> = {};

const mailsTo = (address: string) => sink.messages().filter((m) => m.includes(`To: ${address}`));

describe.skipIf(!ready.ok)("unseen chat replies by email, in a browser", () => {
  beforeAll(async () => {
    sink = await startSmtpSink();
    smtpPort = await freePort();
    desk = await startDeskBinary({
      DESK_SMTP_PORT: String(smtpPort),
      DESK_INBOUND_DOMAIN: "desk.test",
      DESK_ALLOWED_PRIVATE_HOSTS: "127.0.0.1",
      DESK_CHAT_MAIL_DELAY: `${DELAY_MS}ms`,
    });
    browser = await launchChromium();
    headers = (await ownerWithWorkspace(desk.url, owner, "Chatmail Co")).headers;
    for (const [name, email] of [
      ["Support", "support@chatmail.test"],
      ["Chat", "chat@chatmail.test"],
    ]) {
      const made = await call(desk.url, "POST", "/v1/mailboxes", headers, {
        name,
        email,
        outbound_kind: "smtp",
        config: { smtp_host: "127.0.0.1", smtp_port: sink.port, smtp_tls: "none" },
      });
      expect(made.status).toBe(201);
    }
    const widgetKey = (await call(desk.url, "GET", "/v1/workspace", headers)).body.widget_key;
    await call(desk.url, "PATCH", "/v1/widget/settings", headers, { require_email: true });
    site = Bun.serve({
      hostname: "127.0.0.1",
      port: 0,
      fetch: () =>
        new Response(
          `<!doctype html><html lang="en"><head><title>Shop</title></head><body><main><h1>Shop</h1></main>
<script src="${desk.url}/widget.js" data-key="${widgetKey}" async></script></body></html>`,
          { headers: { "content-type": "text/html; charset=utf-8" } },
        ),
    });
  }, STEP);

  afterAll(async () => {
    for (const c of contexts) await c.close().catch(() => {});
    await browser?.close().catch(() => {});
    site?.stop(true);
    await desk?.stop();
    await sink?.stop();
  });

  async function newContext(): Promise<BrowserContext> {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    contexts.push(context);
    return context;
  }

  async function agentReply(ticketId: string, text: string) {
    const res = await call(desk.url, "POST", `/v1/tickets/${ticketId}/messages`, headers, {
      kind: "reply",
      body_html: `<p>${text}</p>`,
    });
    expect(res.status).toBe(201);
  }

  test(
    "the admin picks the sender; a reply read in the widget is not mailed; after the page closes the next one is, and the emailed answer returns to the chat",
    async () => {
      // Settings → Chat widget: chat replies go out from the Chat mailbox.
      const admin = await (await newContext()).newPage();
      admin.setDefaultTimeout(10_000);
      await signIn(admin, desk.url, owner);
      await admin.goto(`${desk.url}/settings/widget`);
      const sender = admin.getByLabel("Email replies from");
      await shown(sender);
      await sender.selectOption({ label: "Chat (chat@chatmail.test)" });
      await admin.getByRole("button", { name: "Save" }).click();
      await shown(admin.getByRole("button", { name: "Saved" }));
      const saved = await call(desk.url, "GET", "/v1/widget/settings", headers);
      const mailboxes = await call(desk.url, "GET", "/v1/mailboxes", headers);
      const chatBox = mailboxes.body.data.find((m: { email: string }) => m.email === "chat@chatmail.test");
      expect(saved.body.reply_mailbox_id).toBe(chatBox.id);

      // The visitor leaves an email, chats, and reads the first reply in the open widget.
      const visitorContext = await newContext();
      const page = await visitorContext.newPage();
      page.setDefaultTimeout(10_000);
      await page.goto(`http://127.0.0.1:${site.port}/`);
      await page.getByRole("button", { name: "Open chat" }).click();
      await shown(page.getByText("Leave your email so we can reply even after you close this page."));
      await page.getByRole("textbox", { name: "Email" }).fill("lena@buyer.test");
      await page.getByRole("button", { name: "Start chat" }).click();
      const box = page.getByRole("textbox", { name: "Message" });
      await shown(box);
      await box.fill("Has order 5521 shipped?");
      await box.press("Enter");
      await shown(page.locator(".msg.in", { hasText: "order 5521" }));
      const tickets = await call(desk.url, "GET", "/v1/tickets", headers);
      const ticket = tickets.body.data.find((t: { subject: string }) => t.subject.includes("order 5521"));
      await agentReply(ticket.id, "Checking with the warehouse now.");
      await shown(page.locator(".msg.out", { hasText: "Checking with the warehouse" }));
      await Bun.sleep(DELAY_MS + 3_000);
      expect(mailsTo("lena@buyer.test")).toHaveLength(0);

      // The visitor leaves; the next reply waits for the typed address's owner to confirm it: one
      // mail with a link, whose page confirms only on its button (a link scanner's GET changes nothing).
      await page.close();
      await agentReply(ticket.id, "It shipped this morning, tracking AB123.");
      const ask = await sink.waitForMatch(
        (m) => m.includes("To: lena@buyer.test") && m.includes("Confirm your email"),
        DELAY_MS + 15_000,
      );
      expect(ask).not.toContain("tracking AB123");
      const link = /https?:\/\/[^\s"<>]+\/chat-email\/[A-Za-z0-9_-]+/.exec(
        ask.replace(/=\r?\n/g, "").replace(/=3D/g, "="),
      )![0]!;
      const confirm = await visitorContext.newPage();
      confirm.setDefaultTimeout(10_000);
      await confirm.goto(link);
      await confirm.getByRole("button", { name: "Confirm my email" }).click();
      await shown(confirm.getByRole("status").filter({ hasText: "lena@buyer.test" }));
      await confirm.close();
      const mail = await sink.waitForMatch(
        (m) => m.includes("To: lena@buyer.test") && m.includes("tracking AB123"),
        DELAY_MS + 15_000,
      );
      expect(mailsTo("lena@buyer.test").filter((m) => !m.includes("Confirm your email"))).toHaveLength(1);
      expect(mail).toContain("From: Chat <chat@chatmail.test>");
      expect(mail).toContain("tracking AB123");
      expect(mail).not.toContain("Checking with the warehouse");

      // Their emailed answer comes back into the same chat.
      const messageId = /^Message-ID: (<[^>]+>)/m.exec(mail)![1]!;
      const answer = [
        "From: Lena <lena@buyer.test>",
        "To: chat@chatmail.test",
        "Subject: Re: your chat",
        `Message-ID: <answer.${Date.now()}@buyer.test>`,
        `In-Reply-To: ${messageId}`,
        "Content-Type: text/plain; charset=utf-8",
        "",
        "Thanks, got the tracking number!",
        "",
      ].join("\r\n");
      const replies = await sendRawSmtp(smtpPort, new TextEncoder().encode(answer), {
        from: "lena@buyer.test",
        to: ["chat@chatmail.test"],
      });
      expect(replies.at(-2)?.code).toBe(250);
      const back = await visitorContext.newPage();
      back.setDefaultTimeout(10_000);
      await back.goto(`http://127.0.0.1:${site.port}/`);
      await back.getByRole("button", { name: /Open chat/ }).click();
      const row = back.getByRole("list", { name: "Your conversations" }).getByRole("button", { name: /order 5521/ });
      await shown(row);
      await row.click();
      await shown(back.locator(".msg.in", { hasText: "got the tracking number" }));
      await shown(back.locator(".msg.out", { hasText: "tracking AB123" }));
    },
    STEP,
  );
});
