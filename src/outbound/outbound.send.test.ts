/**
 * Outbound conversations end to end over real sockets: replies, new email tickets and forwards
 * leave through the mailbox's SMTP (Postfix's smtp-sink) and the answers come back through Desk's
 * own SMTP receiver into the same ticket.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { createWorkspaceWithOwner } from "../../test/factories";
import { startTestDesk } from "../../test/harness";
import { freePort } from "../../test/peers/dovecot";
import { sendRawSmtp } from "../../test/peers/smtp-send";
import { startSmtpSink } from "../../test/peers/smtp-sink";

const sink = await startSmtpSink();
const smtpPort = await freePort();
const desk = await startTestDesk({
  env: { DESK_SMTP_PORT: String(smtpPort), DESK_INBOUND_DOMAIN: "desk.test", DESK_ALLOWED_PRIVATE_HOSTS: "127.0.0.1" },
});
afterAll(() => sink.stop());

const { owner } = await createWorkspaceWithOwner(desk);
const other = await createWorkspaceWithOwner(desk);

const mailbox = async (headers: Record<string, string>, email: string) => {
  const res = await desk.api("POST", "/v1/mailboxes", {
    headers,
    body: {
      name: "Support",
      email,
      display_name: "Acme Support",
      outbound_kind: "smtp",
      config: { smtp_host: "127.0.0.1", smtp_port: sink.port, smtp_tls: "none" },
    },
  });
  expect(res.status).toBe(201);
  return res.body as { id: string };
};

/** Mail as a customer's client writes it, delivered to Desk's SMTP receiver. */
async function customerMail(opts: {
  from: string;
  to: string;
  subject: string;
  inReplyTo: string;
  body: string;
  html?: boolean;
}) {
  const messageId = `<${crypto.randomUUID()}@customer.test>`;
  const raw = [
    `From: ${opts.from}`,
    `To: ${opts.to}`,
    `Subject: ${opts.subject}`,
    `Message-ID: ${messageId}`,
    `In-Reply-To: ${opts.inReplyTo}`,
    `References: ${opts.inReplyTo}`,
    "Date: Mon, 23 Nov 2026 10:00:00 +0000",
    "MIME-Version: 1.0",
    `Content-Type: text/${opts.html ? "html" : "plain"}; charset=utf-8`,
    "",
    opts.body,
    "",
  ].join("\r\n");
  const address = /<([^>]+)>/.exec(opts.from)?.[1] ?? opts.from;
  const replies = await sendRawSmtp(smtpPort, new TextEncoder().encode(raw), { from: address, to: [opts.to] });
  expect(replies.at(-2)?.code).toBe(250);
  return messageId;
}

/** The sent mail carrying our Message-ID for a message (smtp-sink names files by the second, so never by order). */
async function sentMail(messageId: string): Promise<string> {
  await desk.jobs.drain();
  const deadline = Date.now() + 5_000;
  for (;;) {
    const found = sink.messages().find((m) => m.includes(`Message-ID: <${messageId}@desk.test>`));
    if (found) return found;
    if (Date.now() > deadline) throw new Error(`no mail for ${messageId}`);
    await Bun.sleep(25);
    await desk.jobs.drain();
  }
}

/** The headers of a sink file: smtp-sink's envelope lines (X-Rcpt-Args) come first, then the message's. */
const headersOf = (raw: string) => raw.split(/\r?\n\r?\n/)[0]!;
/** One MIME part of a sent mail, decoded (quoted-printable or base64) to text. */
function partOf(raw: string, type: "text/plain" | "text/html"): string {
  const mail = raw.replace(/\r\n/g, "\n");
  const at = mail.indexOf(`Content-Type: ${type}`);
  expect(at).toBeGreaterThan(-1);
  const gap = mail.indexOf("\n\n", at);
  const head = mail.slice(at, gap);
  const boundary = /boundary="([^"]+)"/.exec(mail)?.[1] ?? "\u0000";
  const body = mail.slice(gap + 2).split(`\n--${boundary}`)[0]!;
  const bytes = /base64/i.test(head)
    ? Uint8Array.from(atob(body.replace(/\s+/g, "")), (c) => c.charCodeAt(0))
    : Uint8Array.from(
        body
          .replace(/=\n/g, "")
          .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16))),
        (c) => c.charCodeAt(0),
      );
  return new TextDecoder().decode(bytes);
}

const messagesOf = async (ticketId: string) =>
  (await desk.api("GET", `/v1/tickets/${ticketId}/messages`, { headers: owner.headers })).body.data as Array<{
    id: string;
    kind: string;
    direction: string;
    delivery_status: string;
    forward: boolean;
    to: string[];
    cc: string[];
    bcc: string[];
    body_text: string;
  }>;

describe("a new conversation by email", () => {
  test("channel email needs a usable mailbox: 422 at body.mailbox_id without one, another workspace's included", async () => {
    const bare = await createWorkspaceWithOwner(desk);
    const body = { subject: "Hello", channel: "email", contact: { email: "c@customer.test" }, body_text: "Hi" };
    const none = await desk.api("POST", "/v1/tickets", { headers: bare.owner.headers, body });
    expect(none.status).toBe(422);
    expect(none.body.errors[0].location).toBe("body.mailbox_id");
    const elsewhere = await mailbox(other.owner.headers, "help@other.test");
    const foreign = await desk.api("POST", "/v1/tickets", {
      headers: bare.owner.headers,
      body: { ...body, mailbox_id: elsewhere.id },
    });
    expect(foreign.status).toBe(422);
    expect(foreign.body.errors[0].location).toBe("body.mailbox_id");
    // Nothing was stored by the refusals.
    const listed = await desk.api("GET", "/v1/tickets", { headers: bare.owner.headers });
    expect(listed.body.data).toHaveLength(0);
  });

  test("the first message is mailed from the default mailbox; the customer's answer threads back; the next reply quotes it", async () => {
    const support = await mailbox(owner.headers, "support@acme.test");
    const created = await desk.api("POST", "/v1/tickets", {
      headers: owner.headers,
      body: {
        subject: "Your renewal",
        channel: "email",
        contact: { email: "carol@customer.test", name: "Carol" },
        kind: "reply",
        body_text: "Hello Carol,\n\nyour plan renews next week.\n\nRegards",
      },
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ channel: "email", mailbox_id: support.id });
    const [first] = await messagesOf(created.body.id);
    expect(first!.delivery_status).toBe("pending");
    const firstMail = await sentMail(first!.id);
    expect(headersOf(firstMail)).toContain("To: carol@customer.test");
    expect(headersOf(firstMail)).toContain(`Subject: Your renewal [#${created.body.number}]`);
    // The text part keeps the paragraphs apart.
    expect(partOf(firstMail, "text/plain")).toContain("Hello Carol,\n\nyour plan renews next week.\n\nRegards");
    expect((await messagesOf(created.body.id))[0]!.delivery_status).toBe("sent");

    await customerMail({
      from: "Carol <carol@customer.test>",
      to: "support@acme.test",
      subject: `Re: Your renewal [#${created.body.number}]`,
      inReplyTo: `<${first!.id}@desk.test>`,
      body: "Thanks, can I <b>pay</b> yearly?\r\n\r\nSecond paragraph.",
    });
    const afterAnswer = await messagesOf(created.body.id);
    expect(afterAnswer.map((m) => m.direction)).toEqual(["outbound", "inbound"]);

    const reply = await desk.api("POST", `/v1/tickets/${created.body.id}/messages`, {
      headers: owner.headers,
      body: { kind: "reply", body_text: "Yes, you can.\n\nJust say so." },
    });
    expect(reply.body.delivery_status).toBe("pending");
    const replyMail = await sentMail(reply.body.id);
    const head = headersOf(replyMail);
    expect(head).toMatch(/In-Reply-To: <[^>]+@customer\.test>/);
    expect(head).toContain(`<${first!.id}@desk.test>`);
    const text = partOf(replyMail, "text/plain");
    expect(text).toContain("Yes, you can.\n\nJust say so.");
    expect(text).toMatch(
      /\n\nOn \w{3}, \d{1,2} \w{3} \d{4} at \d\d:\d\d UTC, Carol <carol@customer\.test> wrote:\n> Thanks, can I <b>pay<\/b> yearly\?\n>\n> Second paragraph\.$/,
    );
    const html = partOf(replyMail, "text/html");
    expect(html).toMatch(/On \w{3}, \d{1,2} \w{3} \d{4} at \d\d:\d\d UTC, Carol &lt;carol@customer\.test&gt; wrote:/);
    expect(html).toMatch(/<blockquote class="gmail_quote"[^>]*>.*Thanks, can I &lt;b&gt;pay&lt;\/b&gt; yearly\?/s);
    expect(html).not.toContain("<b>pay</b>");
  });
});

describe("Cc and Bcc on replies", () => {
  test("Cc is a header; Bcc only reaches the envelope; repeats are sent once", async () => {
    const ticket = await desk.api("POST", "/v1/tickets", {
      headers: owner.headers,
      body: { subject: "Invoice", channel: "email", contact: { email: "dan@customer.test" } },
    });
    const reply = await desk.api("POST", `/v1/tickets/${ticket.body.id}/messages`, {
      headers: owner.headers,
      body: {
        kind: "reply",
        body_text: "Attached.",
        cc: ["boss@customer.test", "DAN@customer.test"],
        bcc: ["audit@acme.test", "boss@customer.test"],
      },
    });
    expect(reply.status).toBe(201);
    expect(reply.body).toMatchObject({
      to: ["dan@customer.test"],
      cc: ["boss@customer.test"],
      bcc: ["audit@acme.test"],
    });
    const mail = await sentMail(reply.body.id);
    const head = headersOf(mail);
    expect(head).toContain("X-Rcpt-Args: <audit@acme.test>");
    expect(head).toContain("X-Rcpt-Args: <boss@customer.test>");
    expect(head).toContain("Cc: boss@customer.test");
    expect(head).not.toMatch(/^Bcc:/im);
    expect(mail).not.toContain("audit@acme.test>\r\nReceived");
    expect(mail.slice(mail.indexOf("\nFrom:"))).not.toContain("audit@acme.test");
  });

  test("bad recipients answer 422 at their location and store nothing", async () => {
    const ticket = await desk.api("POST", "/v1/tickets", {
      headers: owner.headers,
      body: { subject: "Refused", channel: "email", contact: { email: "erin@customer.test" } },
    });
    const path = `/v1/tickets/${ticket.body.id}/messages`;
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ bcc: ["x@y.test\r\nBcc: spy@evil.test"] }, "body.bcc.0"],
      [{ cc: ["Carol <c@customer.test>"] }, "body.cc.0"],
      [{ cc: ["not an address"] }, "body.cc.0"],
      [
        {
          cc: Array.from({ length: 30 }, (_, i) => `c${i}@x.test`),
          bcc: Array.from({ length: 21 }, (_, i) => `b${i}@x.test`),
        },
        "body.bcc",
      ],
      [{ kind: "note", bcc: ["a@x.test"] }, "body.bcc"],
    ];
    for (const [extra, location] of cases) {
      const res = await desk.api("POST", path, {
        headers: owner.headers,
        body: { kind: "reply", body_text: "x", ...extra },
      });
      expect(res.status).toBe(422);
      expect(res.body.errors.map((e: { location: string }) => e.location)).toContain(location);
    }
    expect(await messagesOf(ticket.body.id)).toHaveLength(0);
  });
});

describe("forward", () => {
  test("mails the conversation to a third party, recorded as a forward; their answer threads into the ticket", async () => {
    const ticket = await desk.api("POST", "/v1/tickets", {
      headers: owner.headers,
      body: {
        subject: "Broken <script> printer",
        channel: "email",
        contact: { email: "frank@customer.test", name: "Frank" },
        kind: "reply",
        body_text: "Tell us the model, please.",
      },
    });
    const [first] = await messagesOf(ticket.body.id);
    await sentMail(first!.id);
    const frankId = await customerMail({
      from: "Frank <frank@customer.test>",
      to: "support@acme.test",
      subject: "Re: Broken printer",
      inReplyTo: `<${first!.id}@desk.test>`,
      body: '<p>Model X100.</p><img src="x" onerror="alert(1)"><script>alert(2)</script>',
      html: true,
    });
    const note = await desk.api("POST", `/v1/tickets/${ticket.body.id}/messages`, {
      headers: owner.headers,
      body: { kind: "note", body_text: "internal: vendor is slow" },
    });
    expect(note.status).toBe(201);

    const forward = await desk.api("POST", `/v1/tickets/${ticket.body.id}/forward`, {
      headers: owner.headers,
      body: { to: ["vendor@parts.test"], bcc: ["audit@acme.test"], body_text: "Can you help with this one?" },
    });
    expect(forward.status).toBe(201);
    expect(forward.body).toMatchObject({
      kind: "note",
      forward: true,
      direction: "outbound",
      to: ["vendor@parts.test"],
      bcc: ["audit@acme.test"],
      delivery_status: "pending",
      subject: "Fwd: Broken <script> printer",
    });
    const mail = await sentMail(forward.body.id);
    const head = headersOf(mail);
    expect(head).toContain("To: vendor@parts.test");
    expect(head).toContain("X-Rcpt-Args: <audit@acme.test>");
    expect(head).not.toContain("frank@customer.test");
    expect(head).not.toMatch(/^In-Reply-To:/im);
    expect(head).toContain(`Subject: Fwd: Broken <script> printer [#${ticket.body.number}]`);
    const text = partOf(mail, "text/plain");
    expect(text).toContain("Can you help with this one?\n\n---------- Forwarded conversation ----------");
    expect(text).toContain("From: Acme Support <support@acme.test>");
    expect(text).toContain("From: Frank <frank@customer.test>");
    expect(text).not.toContain("vendor is slow");
    const html = partOf(mail, "text/html");
    expect(html).toContain("Subject: Broken &lt;script&gt; printer");
    expect(html).toContain("<p>Model X100.</p>");
    expect(html).not.toContain("onerror");
    expect(html).not.toContain("<script");
    expect(html).not.toContain("vendor is slow");
    expect((await messagesOf(ticket.body.id)).find((m) => m.id === forward.body.id)!.delivery_status).toBe("sent");

    const vendorId = await customerMail({
      from: "Vendor <vendor@parts.test>",
      to: "support@acme.test",
      subject: `Re: Fwd: Broken printer [#${ticket.body.number}]`,
      inReplyTo: `<${forward.body.id}@desk.test>`,
      body: "Send it to us.",
    });
    const all = await messagesOf(ticket.body.id);
    expect(all.at(-1)).toMatchObject({ direction: "inbound", body_text: "Send it to us." });

    // The next reply to the customer quotes the customer, never the vendor's answer.
    const next = await desk.api("POST", `/v1/tickets/${ticket.body.id}/messages`, {
      headers: owner.headers,
      body: { kind: "reply", body_text: "We are on it." },
    });
    const nextMail = await sentMail(next.body.id);
    // ...and its thread headers name neither the forward nor the vendor's answer.
    expect(headersOf(nextMail)).toContain(`In-Reply-To: ${frankId}`);
    expect(headersOf(nextMail)).not.toContain(forward.body.id);
    expect(headersOf(nextMail)).not.toContain(vendorId);
    const nextText = partOf(nextMail, "text/plain");
    expect(nextText).toContain("Frank <frank@customer.test> wrote:\n> Model X100.");
    expect(nextText).not.toContain("Send it to us.");
  });

  test("another workspace's ticket is 404; no recipient or a bad one is 422", async () => {
    const ticket = await desk.api("POST", "/v1/tickets", {
      headers: owner.headers,
      body: { subject: "Mine", channel: "email", contact: { email: "g@customer.test" } },
    });
    const theirs = await desk.api("POST", `/v1/tickets/${ticket.body.id}/forward`, {
      headers: other.owner.headers,
      body: { to: ["x@parts.test"] },
    });
    expect(theirs.status).toBe(404);
    for (const [body, location] of [
      [{ to: [] }, "body.to"],
      [{ to: ["x@parts.test\nCc: y@evil.test"] }, "body.to.0"],
    ] as const) {
      const res = await desk.api("POST", `/v1/tickets/${ticket.body.id}/forward`, { headers: owner.headers, body });
      expect(res.status).toBe(422);
      expect(res.body.errors[0].location).toBe(location);
    }
  });
});
