/**
 * A mailbox's signature on the replies it sends, over real sockets: the customer writes to Desk's SMTP
 * receiver, an agent replies, and the mail leaves through the mailbox's SMTP (Postfix's smtp-sink).
 */
import { afterAll, describe, expect, test } from "bun:test";
import { simpleParser } from "mailparser";
import { createWorkspaceWithOwner } from "../../test/factories";
import { startTestDesk } from "../../test/harness";
import { freePort } from "../../test/peers/dovecot";
import { sendRawSmtp } from "../../test/peers/smtp-send";
import { startSmtpSink } from "../../test/peers/smtp-sink";
import { withSignature } from "./outbound.signature";

const sink = await startSmtpSink();
const smtpPort = await freePort();
const desk = await startTestDesk({
  env: { DESK_SMTP_PORT: String(smtpPort), DESK_INBOUND_DOMAIN: "desk.test", DESK_ALLOWED_PRIVATE_HOSTS: "127.0.0.1" },
});
afterAll(() => sink.stop());

const { owner } = await createWorkspaceWithOwner(desk);
const address = `help-${crypto.randomUUID().slice(0, 8)}@acme.test`;
const created = await desk.api("POST", "/v1/mailboxes", {
  headers: owner.headers,
  body: {
    name: "Support",
    email: address,
    outbound_kind: "smtp",
    config: { smtp_host: "127.0.0.1", smtp_port: sink.port, smtp_tls: "none" },
  },
});
const mailboxId: string = created.body.id;

/** The sent mail of a message, parsed (smtp-sink's own header lines come first and are harmless). */
async function sentMail(messageId: string) {
  const deadline = Date.now() + 5_000;
  for (;;) {
    await desk.jobs.drain();
    const raw = sink.messages().find((m) => m.includes(`Message-ID: <${messageId}@desk.test>`));
    if (raw) return simpleParser(raw);
    if (Date.now() > deadline) throw new Error(`no mail for ${messageId}`);
    await Bun.sleep(25);
  }
}

/** A customer's mail to the mailbox; answers the ticket it opened. */
async function customerWrites(subject: string): Promise<string> {
  const raw = [
    "From: Carol <carol@customer.test>",
    `To: ${address}`,
    `Subject: ${subject}`,
    `Message-ID: <${crypto.randomUUID()}@customer.test>`,
    "Date: Mon, 23 Nov 2026 10:00:00 +0000",
    "MIME-Version: 1.0",
    "Content-Type: text/plain; charset=utf-8",
    "",
    "Where is my parcel?",
    "",
  ].join("\r\n");
  const replies = await sendRawSmtp(smtpPort, new TextEncoder().encode(raw), {
    from: "carol@customer.test",
    to: [address],
  });
  expect(replies.at(-2)?.code).toBe(250);
  const list = await desk.api("GET", `/v1/tickets?q=${encodeURIComponent(subject)}`, { headers: owner.headers });
  const found = (list.body.data as Array<{ id: string; subject: string }>).find((t) => t.subject === subject);
  if (!found) throw new Error("the customer's mail opened no ticket");
  return found.id;
}

const reply = async (ticketId: string, body_html: string) => {
  const res = await desk.api("POST", `/v1/tickets/${ticketId}/messages`, {
    headers: owner.headers,
    body: { kind: "reply", body_html },
  });
  expect(res.status).toBe(201);
  return res.body.id as string;
};

const count = (haystack: string, needle: string) => haystack.split(needle).length - 1;

describe("the mailbox signature on replies", () => {
  test("once, under the reply and above the quoted message, in the HTML and the text part", async () => {
    const patched = await desk.api("PATCH", `/v1/mailboxes/${mailboxId}`, {
      headers: owner.headers,
      body: { signature_html: "<p><strong>Dana</strong> from Acme Support</p>" },
    });
    expect(patched.status).toBe(200);
    const ticket = await customerWrites(`Parcel ${crypto.randomUUID().slice(0, 6)}`);
    const mail = await sentMail(await reply(ticket, "<p>It ships today.</p>"));
    const html = String(mail.html);
    const text = mail.text ?? "";
    expect(count(html, "<strong>Dana</strong> from Acme Support")).toBe(1);
    expect(html.indexOf("It ships today.")).toBeLessThan(html.indexOf("Dana</strong>"));
    expect(html.indexOf("Dana</strong>")).toBeLessThan(html.indexOf("Where is my parcel?"));
    expect(count(text, "Dana from Acme Support")).toBe(1);
    expect(text.indexOf("It ships today.")).toBeLessThan(text.indexOf("Dana from Acme Support"));
    expect(text.indexOf("Dana from Acme Support")).toBeLessThan(text.indexOf("> Where is my parcel?"));
  });

  test("a reply that already ends with the signature (a saved reply carrying it) gets it once", async () => {
    await desk.api("PATCH", `/v1/mailboxes/${mailboxId}`, {
      headers: owner.headers,
      body: { signature_html: "<p>Dana, Acme Support</p>" },
    });
    const ticket = await customerWrites(`Parcel ${crypto.randomUUID().slice(0, 6)}`);
    const mail = await sentMail(await reply(ticket, "<p>It ships today.</p><p>Dana,&nbsp; Acme Support</p>"));
    expect(count(String(mail.html), "Acme Support")).toBe(1);
    expect(count(mail.text ?? "", "Acme Support")).toBe(1);
  });

  test("an empty signature adds nothing; markup without text or image counts as empty", () => {
    expect(withSignature("<p>Hi</p>", "")).toBe("<p>Hi</p>");
    expect(withSignature("<p>Hi</p>", "<p> </p>")).toBe("<p>Hi</p>");
    expect(withSignature("<p>Hi</p>", "<p>Bye</p>")).toBe('<p>Hi</p><br><div class="signature"><p>Bye</p></div>');
    expect(withSignature("<p>Hi</p>", '<img src="https://acme.test/logo.png" alt="">')).toContain("logo.png");
  });
});
