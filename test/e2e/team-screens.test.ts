/**
 * A new team's screens in a real browser against dist/desk: a mailbox edited in place (its signature
 * then goes out on replies through a real SMTP peer), a reply taking an unassigned ticket (and the
 * workspace setting that turns it off), and the SLA panel telling met from late from the real times.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { simpleParser } from "mailparser";
import type { Browser, Page } from "playwright-core";
import { startSmtpSink, type SmtpSink } from "../peers/smtp-sink";
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
let desk: RunningDesk;
let sink: SmtpSink;
let browser: Browser;
let page: Page;
let headers: Record<string, string> = {};
let ownerId = "";
const owner = { name: "Olivia Owner", email: "olivia@team.test", password: "correct horse battery" };

const api = async <T = any>(method: string, path: string, body?: unknown): Promise<T> => {
  const res = await call<T>(desk.url, method, path, headers, body);
  if (res.status >= 300) throw new Error(`${method} ${path} answered ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body;
};

const newTicket = (subject: string, extra: Record<string, unknown> = {}) =>
  api<{ id: string; number: number }>("POST", "/v1/tickets", {
    subject,
    contact: { email: "carol@customer.test", name: "Carol" },
    kind: "note",
    body_html: "<p>Customer called.</p>",
    ...extra,
  });

/** The first mail the SMTP peer received whose source mentions `text` (waits up to 10 s). */
async function mailAbout(text: string): Promise<string | undefined> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const found = sink.messages().find((m) => m.includes(text));
    if (found || Date.now() > deadline) return found;
    await Bun.sleep(100);
  }
}

const minutes = (n: number) => n * 60_000;
const iso = (ms: number) => new Date(ms).toISOString();

describe.skipIf(!ready.ok)("team screens (Chromium against dist/desk)", () => {
  beforeAll(async () => {
    sink = await startSmtpSink();
    desk = await startDeskBinary({ DESK_ALLOWED_PRIVATE_HOSTS: "127.0.0.1", DESK_INBOUND_DOMAIN: "desk.test" });
    browser = await launchChromium();
    const made = await ownerWithWorkspace(desk.url, owner, "Team");
    headers = made.headers;
    ownerId = made.userId;
    const context = await browser.newContext({ viewport: { width: 1360, height: 900 } });
    page = await context.newPage();
    page.setDefaultTimeout(8000);
    await signIn(page, desk.url, owner);
  }, STEP);

  afterAll(async () => {
    await browser?.close();
    await desk?.stop();
    await sink?.stop();
  }, STEP);

  test(
    "a mailbox is edited in place: names, team, signature, auto-reply; a blank password keeps the stored one",
    async () => {
      const team = await api("POST", "/v1/teams", { name: "Billing team" });
      const mailbox = await api("POST", "/v1/mailboxes", {
        name: "Support",
        email: "support@acme.test",
        outbound_kind: "smtp",
        config: { smtp_host: "127.0.0.1", smtp_port: sink.port, smtp_tls: "none", smtp_username: "desk" },
        smtp_password: "stored secret",
      });
      await page.goto(`${desk.url}/settings/mailboxes`);
      const card = page.locator(".card", { hasText: "support@acme.test" });
      await card.getByRole("button", { name: "Edit", exact: true }).click();
      const form = page.getByRole("form", { name: "Edit mailbox Support" });
      await shown(form);
      expect(await form.getByLabel("Host").inputValue()).toBe("127.0.0.1");
      expect(await form.getByLabel("Password").inputValue()).toBe("");

      // A bad address answers at its field, and nothing is stored.
      await form.getByLabel("Address").fill("not an address");
      await form.getByRole("button", { name: "Save mailbox" }).click();
      await shown(form.locator(".field-invalid", { hasText: "Address" }));
      expect((await api("GET", `/v1/mailboxes/${mailbox.id}`)).email).toBe("support@acme.test");

      await form.getByLabel("Address").fill("billing@acme.test");
      await form.getByLabel("Name", { exact: true }).fill("Billing");
      await form.getByLabel("Sender name").fill("Acme Billing");
      await form.getByLabel("Team").selectOption({ label: "Billing team" });
      const signature = form.getByRole("textbox", { name: "Signature" });
      await signature.click();
      await page.keyboard.type("Dana");
      await page.keyboard.press("Enter");
      await page.keyboard.type("Acme Billing desk");
      await form.getByLabel("Send an auto-reply to each new ticket").check();
      await form.getByLabel("Auto-reply subject").fill("We got your message");
      await form.getByRole("textbox", { name: "Auto-reply message" }).click();
      await page.keyboard.type("We answer within a day.");
      const patch = page.waitForRequest(
        (r) => r.method() === "PATCH" && r.url().endsWith(`/v1/mailboxes/${mailbox.id}`),
      );
      await form.getByRole("button", { name: "Save mailbox" }).click();
      const sent = JSON.parse((await patch).postData() ?? "{}");
      expect(sent.smtp_password).toBeUndefined();
      await form.waitFor({ state: "detached" });

      const stored = await api("GET", `/v1/mailboxes/${mailbox.id}`);
      expect(stored).toMatchObject({
        id: mailbox.id,
        name: "Billing",
        email: "billing@acme.test",
        display_name: "Acme Billing",
        team_id: team.id,
        forwarding_address: mailbox.forwarding_address,
        outbound_kind: "smtp",
        config: { smtp_host: "127.0.0.1", smtp_port: sink.port, smtp_username: "desk" },
        auto_reply_enabled: true,
        auto_reply_subject: "We got your message",
      });
      expect(stored.signature_html).toContain("Dana");
      expect(stored.signature_html).toContain("Acme Billing desk");
      expect(stored.auto_reply_html).toContain("We answer within a day.");
      await shown(page.locator(".card", { hasText: "billing@acme.test" }).getByText("auto-reply on", { exact: false }));

      // The form opens again on what is stored.
      await page.reload();
      await page
        .locator(".card", { hasText: "billing@acme.test" })
        .getByRole("button", { name: "Edit", exact: true })
        .click();
      const again = page.getByRole("form", { name: "Edit mailbox Billing" });
      expect(await again.getByRole("textbox", { name: "Signature" }).textContent()).toContain("Acme Billing desk");
      expect(await again.getByLabel("Send an auto-reply to each new ticket").isChecked()).toBe(true);
      await again.getByRole("button", { name: "Cancel" }).click();

      // A reply from this mailbox carries the signature under it, in both parts, once.
      const ticket = await newTicket("Invoice copy", { channel: "email", mailbox_id: mailbox.id });
      await page.goto(`${desk.url}/tickets/${ticket.number}`);
      await page.getByLabel("Reply", { exact: true }).fill("Here is your invoice.");
      await page.getByRole("button", { name: "Send reply" }).click();
      const raw = await mailAbout("Invoice copy");
      expect(raw).toBeDefined();
      const mail = await simpleParser(raw ?? "");
      expect(mail.from?.text).toContain("Acme Billing");
      const html = String(mail.html);
      expect(html.indexOf("Here is your invoice.")).toBeLessThan(html.indexOf("Acme Billing desk"));
      expect(html.split("Acme Billing desk").length - 1).toBe(1);
      expect((mail.text ?? "").split("Acme Billing desk").length - 1).toBe(1);
    },
    STEP,
  );

  test(
    "an agent's reply takes an unassigned ticket; Settings → Workspace turns that off",
    async () => {
      const first = await newTicket("Password reset");
      await page.goto(`${desk.url}/tickets/${first.number}`);
      expect(await page.getByLabel("Assignee").inputValue()).toBe("");
      await page.getByLabel("Reply", { exact: true }).fill("I have reset it for you.");
      await page.getByRole("button", { name: "Send reply" }).click();
      expect(await eventually(() => page.getByLabel("Assignee").inputValue(), ownerId)).toBe(ownerId);
      expect((await api("GET", `/v1/tickets/${first.id}`)).assignee.id).toBe(ownerId);

      await page.goto(`${desk.url}/settings/workspace`);
      const toggle = page.getByLabel("Assign a ticket to the agent who replies to it while unassigned");
      expect(await toggle.isChecked()).toBe(true);
      await toggle.uncheck();
      await page.getByRole("button", { name: "Save", exact: true }).click();
      expect(await eventually(async () => (await api("GET", "/v1/workspace")).settings.assign_on_reply, false)).toBe(
        false,
      );

      const second = await newTicket("Second question");
      await page.goto(`${desk.url}/tickets/${second.number}`);
      await page.getByLabel("Reply", { exact: true }).fill("Answered, left for the team.");
      await page.getByRole("button", { name: "Send reply" }).click();
      await shown(page.locator(".msg-body", { hasText: "Answered, left for the team." }));
      await Bun.sleep(1500);
      expect((await api("GET", `/v1/tickets/${second.id}`)).assignee).toBeNull();
      expect(await page.getByLabel("Assignee").inputValue()).toBe("");
    },
    STEP,
  );

  test(
    "the SLA panel shows met, late by how much, due in and paused from the ticket's real times",
    async () => {
      await api("POST", "/v1/sla-policies", {
        name: "Everything",
        first_response_minutes: 60,
        resolution_minutes: 1440,
      });
      const ticket = await newTicket("Slow answer");
      expect(
        await eventually(async () => ((await api("GET", `/v1/tickets/${ticket.id}`)).sla ? "set" : "unset"), "set"),
      ).toBe("set");
      const now = Date.now();
      // The ticket as the server would answer it with these times: a reply 2 h 5 min after its deadline.
      const answerWith = async (times: Record<string, unknown>) => {
        await page.unroute(`**/v1/tickets/${ticket.number}`);
        await page.route(`**/v1/tickets/${ticket.number}`, async (route) => {
          const real = await (await route.fetch()).json();
          const sla = { ...real.sla, ...(times.sla as object) };
          await route.fulfill({ json: { ...real, ...times, sla } });
        });
        await page.goto(`${desk.url}/tickets/${ticket.number}`);
        const panel = page.getByRole("region", { name: "SLA" });
        await shown(panel);
        return panel;
      };
      const target = (panel: ReturnType<Page["getByRole"]>, label: string) =>
        panel.locator(".sla-target", { hasText: label }).locator(".sla-target-state").textContent();

      let panel = await answerWith({
        first_responded_at: iso(now - minutes(10)),
        sla: {
          first_response_due_at: iso(now - minutes(135)),
          resolution_due_at: iso(now + minutes(300)),
          breached: true,
        },
      });
      expect(await target(panel, "First response")).toBe("Late by 2 h 5 min");
      expect(await target(panel, "Resolution")).toMatch(/^Due in (4 h 59 min|5 h)$/);
      await shown(panel.getByText("Breached"));

      panel = await answerWith({
        first_responded_at: iso(now - minutes(30)),
        sla: { first_response_due_at: iso(now - minutes(5)), resolution_due_at: null, breached: false },
      });
      expect(await target(panel, "First response")).toBe("Met");
      expect(await target(panel, "Resolution")).toBe("Paused");
      expect(await panel.getByText("Breached").count()).toBe(0);

      panel = await answerWith({
        status: "solved",
        solved_at: iso(now - minutes(20)),
        first_responded_at: null,
        sla: {
          first_response_due_at: iso(now - minutes(90)),
          resolution_due_at: iso(now - minutes(50)),
          breached: true,
        },
      });
      expect(await target(panel, "First response")).toBe("Late by 1 h 10 min");
      expect(await target(panel, "Resolution")).toBe("Late by 30 min");
      await page.unroute(`**/v1/tickets/${ticket.number}`);
    },
    STEP,
  );
});
