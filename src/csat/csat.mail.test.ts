import { afterAll, describe, expect, test } from "bun:test";
import { ALL_SCOPES, createKey, createWorkspaceWithOwner } from "../../test/factories";
import { startTestDesk } from "../../test/harness";
import { freePort } from "../../test/peers/dovecot";
import { sendRawSmtp } from "../../test/peers/smtp-send";
import { startSmtpSink } from "../../test/peers/smtp-sink";
import { manualClock } from "../lib/clock";
import { sql } from "drizzle-orm";
import { rowsOf } from "../db/store";

// The rating request is customer mail: it goes out from the ticket's mailbox over its SMTP (a real
// peer here), threaded on the ticket, some minutes after the solve; the customer's answer comes back
// through the real SMTP receiver onto the ticket.
const sink = await startSmtpSink();
const smtpPort = await freePort();
const clock = manualClock(new Date());
const desk = await startTestDesk({
  clock,
  env: { DESK_SMTP_PORT: String(smtpPort), DESK_INBOUND_DOMAIN: "desk.test", DESK_ALLOWED_PRIVATE_HOSTS: "127.0.0.1" },
});
afterAll(() => sink.stop());
const CSAT_MAIL_DELAY_MS = desk.deps.config.csatDelayMs;

const { workspace, owner } = await createWorkspaceWithOwner(desk);
// Keys outlive the minutes this file moves the clock by (a session's access token would not).
const key = await createKey(desk, owner, ALL_SCOPES);
const headers = { ...key.headers, "desk-workspace": workspace.id };
expect(
  (await desk.api("PATCH", "/v1/workspace", { headers: owner.headers, body: { settings: { csat_enabled: true } } }))
    .status,
).toBe(200);
const mailbox = await desk.api("POST", "/v1/mailboxes", {
  headers: owner.headers,
  body: {
    name: "Help",
    email: "help@csat-mail.test",
    display_name: "Acme Help",
    outbound_kind: "smtp",
    config: { smtp_host: "127.0.0.1", smtp_port: sink.port, smtp_tls: "none" },
  },
});
expect(mailbox.status).toBe(201);

let seq = 0;
async function customerMail(from: string, subject: string, extra: string[] = []): Promise<string> {
  const messageId = `<c${Date.now()}.${seq++}@customer.test>`;
  const raw = [
    `From: ${from}`,
    "To: help@csat-mail.test",
    `Subject: ${subject}`,
    `Message-ID: ${messageId}`,
    "Date: Mon, 23 Nov 2026 10:00:00 +0000",
    "Content-Type: text/plain; charset=utf-8",
    ...extra,
    "",
    "Hello",
    "",
  ].join("\r\n");
  const replies = await sendRawSmtp(smtpPort, new TextEncoder().encode(raw), {
    from: /<([^>]+)>/.exec(from)![1]!,
    to: ["help@csat-mail.test"],
  });
  if (replies.at(-2)?.code !== 250) throw new Error(JSON.stringify(replies));
  return messageId;
}

const ticketOfMessage = async (messageId: string) =>
  (
    await rowsOf<{ ticket_id: string }>(
      desk.deps.db,
      sql`SELECT ticket_id FROM messages WHERE email_message_id = ${messageId.replace(/^<|>$/g, "")}`,
    )
  )[0]!.ticket_id;
const statusOf = async (ticketId: string) =>
  (await rowsOf<{ status: string }>(desk.deps.db, sql`SELECT status FROM tickets WHERE id = ${ticketId}`))[0]!.status;
const setStatus = async (ticketId: string, status: string) =>
  expect((await desk.api("PATCH", `/v1/tickets/${ticketId}`, { headers, body: { status } })).status).toBe(200);
const ratingMailsTo = (address: string) =>
  sink.messages().filter((m) => m.includes(`To: ${address}`) && m.includes("How did we do?"));

async function passMinutes(minutes: number) {
  // What happened so far is handled at its own time first: consumers follow a change within moments
  // (on PostgreSQL after the request has answered), never minutes later, as this clock would make it.
  await desk.consumers.drain();
  clock.advance(minutes * 60_000);
  await desk.consumers.drain();
  await desk.jobs.drain();
}

describe("the rating request mail", () => {
  test("waits 10 minutes after the solve, then comes from the ticket's mailbox, threaded; an answer lands on the ticket", async () => {
    expect(CSAT_MAIL_DELAY_MS).toBe(10 * 60_000);
    const customer = "rita@customer.test";
    const first = await customerMail(`Rita <${customer}>`, "Broken kettle");
    const ticketId = await ticketOfMessage(first);
    await setStatus(ticketId, "solved");
    await passMinutes(0);
    await passMinutes(9);
    expect(ratingMailsTo(customer)).toHaveLength(0);
    await passMinutes(2);
    const mail = await sink.waitForMatch((m) => m.includes(`To: ${customer}`) && m.includes("How did we do?"));
    expect(ratingMailsTo(customer)).toHaveLength(1);
    expect(mail).toContain("From: Acme Help <help@csat-mail.test>");
    expect(mail).toContain("Reply-To: help@csat-mail.test");
    expect(mail).not.toContain("no-reply@");
    expect(mail).toContain(`In-Reply-To: ${first}`);
    expect(mail).toMatch(new RegExp(`References: .*${first.replace(/[.<>]/g, "\\$&")}`));
    const ratingId = /^Message-ID: (<[^>]+>)/m.exec(mail)![1]!;

    // The customer answers the rating mail (a subject without the ticket's tag): it threads by header.
    await customerMail(`Rita <${customer}>`, "Re: your survey", [
      `In-Reply-To: ${ratingId}`,
      `References: ${ratingId}`,
    ]);
    const answer = (
      await rowsOf<{ ticket_id: string }>(
        desk.deps.db,
        sql`SELECT ticket_id FROM messages WHERE from_email = ${customer} ORDER BY created_at DESC, id DESC LIMIT 1`,
      )
    )[0]!;
    expect(answer.ticket_id).toBe(ticketId);
    expect(await statusOf(ticketId)).toBe("open");
  });

  test("a reopen within the delay cancels it; solving again sends one mail for the latest solve", async () => {
    const customer = "sam@customer.test";
    const ticketId = await ticketOfMessage(await customerMail(`Sam <${customer}>`, "Lost parcel"));
    await setStatus(ticketId, "solved");
    await passMinutes(5);
    await setStatus(ticketId, "open");
    await passMinutes(6);
    expect(ratingMailsTo(customer)).toHaveLength(0);
    // solved, reopened, solved again inside one delay: only the last solve's request is mailed
    await setStatus(ticketId, "solved");
    await passMinutes(1);
    await setStatus(ticketId, "open");
    await setStatus(ticketId, "solved");
    await passMinutes(11);
    const before = sink.messages().length;
    await passMinutes(11);
    expect(sink.messages().length).toBe(before);
    expect(ratingMailsTo(customer)).toHaveLength(1);
  });

  test("speaks the workspace's language (WorkspaceSettings.locale)", async () => {
    const patch = (locale: string | null) =>
      desk.api("PATCH", "/v1/workspace", { headers, body: { settings: { locale } } });
    expect((await patch("de")).status).toBe(200);
    try {
      const customer = "dora@customer.test";
      const ticketId = await ticketOfMessage(await customerMail(`Dora <${customer}>`, "Kaputter Wasserkocher"));
      await setStatus(ticketId, "solved");
      await passMinutes(0);
      await passMinutes(11);
      const mail = await sink.waitForMatch((m) => m.includes(`To: ${customer}`));
      expect(mail).toMatch(/Subject: Wie war unser Support\? \[#\d+\] Kaputter Wasserkocher/);
      expect(mail).toContain("Bewerten und Kommentar hinterlassen");
      expect(mail).not.toContain("How did we do?");
    } finally {
      expect((await patch(null)).status).toBe(200);
    }
  });

  test("speaks the contact's own language (Contact.locale) over the workspace's", async () => {
    const customer = "gerd@customer.test";
    const made = await desk.api("POST", "/v1/contacts", { headers, body: { email: customer, locale: "de-AT" } });
    expect(made.status).toBe(201);
    const ticketId = await ticketOfMessage(await customerMail(`Gerd <${customer}>`, "Rechnung falsch"));
    await setStatus(ticketId, "solved");
    await passMinutes(0);
    await passMinutes(11);
    const mail = await sink.waitForMatch((m) => m.includes(`To: ${customer}`));
    expect(mail).toMatch(/Subject: Wie war unser Support\? \[#\d+\] Rechnung falsch/);
    expect(mail).toContain("Bewerten und Kommentar hinterlassen");
    expect(mail).not.toContain("How did we do?");
    // The page the mail links to speaks the mail's language, whatever the browser on the way asks for.
    const token = /\/csat\/([A-Za-z0-9_-]{20,100})/.exec(mail.replace(/=\r?\n/g, ""))?.[1];
    expect(token).toBeDefined();
    const page = await desk.fetch(
      new Request(`http://localhost/csat/${token}`, { headers: { "accept-language": "en-US,en;q=0.9" } }),
    );
    const html = await page.text();
    expect(html).toContain('<html lang="de">');
    expect(html).toContain("Wie war unser Support?");
  });
});
