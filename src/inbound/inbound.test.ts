import { afterAll, describe, expect, test } from "bun:test";
import { connect } from "node:net";
import { startTestDesk } from "../../test/harness";
import { createWorkspaceWithOwner } from "../../test/factories";
import { lastSeq } from "../../test/kit/events";
import { freePort } from "../../test/peers/dovecot";
import { startSmtpSink } from "../../test/peers/smtp-sink";
import { sql } from "drizzle-orm";
import { execute, rowsOf } from "../db/store";

const sink = await startSmtpSink();
const smtpPort = await freePort();
const desk = await startTestDesk({
  env: {
    DESK_SMTP_PORT: String(smtpPort),
    DESK_INBOUND_DOMAIN: "desk.test",
    DESK_TRUSTED_AUTH_SERVERS: "mx.desk.test",
    // The smtp-sink peer listens on loopback, which a mailbox's SMTP host may reach only when listed.
    DESK_ALLOWED_PRIVATE_HOSTS: "127.0.0.1",
  },
});
afterAll(() => sink.stop());

const { workspace, owner } = await createWorkspaceWithOwner(desk);
await desk.api("POST", "/v1/mailboxes", {
  headers: owner.headers,
  body: {
    name: "Support",
    email: "support@acme.test",
    display_name: "Acme Support",
    signature_html: "<p>-- Acme</p>",
    outbound_kind: "smtp",
    config: { smtp_host: "127.0.0.1", smtp_port: sink.port, smtp_tls: "none" },
    auto_reply_enabled: true,
    auto_reply_subject: "We got it",
    trusted_form_senders: ["forms@webflow.test"],
  },
});

let seq = 0;
function eml(
  opts: { from?: string; subject?: string; body?: string; messageId?: string | null; headers?: string[] } = {},
): string {
  const id = opts.messageId === undefined ? `<m${Date.now()}.${seq++}@customer.test>` : opts.messageId;
  return [
    `From: ${opts.from ?? "Carol <carol@customer.test>"}`,
    "To: support@acme.test",
    `Subject: ${opts.subject ?? "Printer is on fire"}`,
    ...(id ? [`Message-ID: ${id}`] : []),
    "Date: Mon, 23 Nov 2026 10:00:00 +0000",
    "MIME-Version: 1.0",
    "Content-Type: text/plain; charset=utf-8",
    ...(opts.headers ?? []),
    "",
    opts.body ?? "Hello, it burns.",
    "",
  ].join("\r\n");
}

/** A minimal SMTP client over a real socket: answers every reply code in order. */
async function smtpSession(commands: string[]): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const socket = connect(smtpPort, "127.0.0.1");
    const replies: string[] = [];
    let buffer = "";
    let step = -1;
    socket.on("data", (chunk) => {
      buffer += chunk.toString();
      while (/^\d{3} .*\r\n/m.test(buffer)) {
        const match = /^(\d{3}) .*\r\n/m.exec(buffer)!;
        replies.push(match[0].trim());
        buffer = buffer.slice(match.index + match[0].length);
        step++;
        if (step < commands.length) socket.write(commands[step]!);
        else socket.end();
      }
    });
    socket.on("end", () => resolve(replies));
    socket.on("error", reject);
  });
}

const sendSmtp = (raw: string, to = "support@acme.test") =>
  smtpSession([
    "EHLO client.test\r\n",
    "MAIL FROM:<carol@customer.test>\r\n",
    `RCPT TO:<${to}>\r\n`,
    "DATA\r\n",
    `${raw.replace(/\r\n\./g, "\r\n..")}\r\n.\r\n`,
    "QUIT\r\n",
  ]);

const postInbound = (raw: string, secret = "test-inbound-secret", to = "support@acme.test") =>
  desk.api("POST", `/v1/inbound/email?to=${encodeURIComponent(to)}`, {
    headers: { "content-type": "message/rfc822", "desk-inbound-secret": secret },
    raw,
  });

const ticketsOf = async () =>
  await rowsOf<{ id: string; number: number; status: string; spam: number; subject: string }>(
    desk.deps.db,
    sql`SELECT id, number, status, spam, subject FROM tickets WHERE workspace_id = ${workspace.id} ORDER BY number`,
  );
/** A JSON column read by raw SQL: text on SQLite, jsonb (already parsed) on PostgreSQL. */
const jsonOf = (value: unknown): unknown => (typeof value === "string" ? JSON.parse(value) : value);
const messagesOf = async (ticketId: string) =>
  await rowsOf<Record<string, unknown>>(
    desk.deps.db,
    sql`SELECT * FROM messages WHERE ticket_id = ${ticketId} ORDER BY created_at, id`,
  );

describe("inbound over SMTP", () => {
  test("unknown recipients are refused at RCPT with 550", async () => {
    const replies = await smtpSession([
      "EHLO c\r\n",
      "MAIL FROM:<a@b.test>\r\n",
      "RCPT TO:<nobody@acme.test>\r\n",
      "QUIT\r\n",
    ]);
    expect(replies[3]).toMatch(/^550 /);
  });

  test("a new mail opens an email ticket; a duplicate stores nothing; our auto-reply goes out once", async () => {
    const raw = eml({ messageId: "<first@customer.test>" });
    const replies = await sendSmtp(raw);
    expect(replies.at(-2)).toMatch(/^250 /);
    const [ticket] = await ticketsOf();
    expect(ticket!.subject).toBe("Printer is on fire");
    const [message] = await messagesOf(ticket!.id);
    expect(message!.direction).toBe("inbound");
    expect(message!.from_email).toBe("carol@customer.test");
    expect(message!.email_message_id).toBe("first@customer.test");
    expect(String(message!.original_path)).toMatch(/^mail\//);
    await sendSmtp(raw);
    expect((await postInbound(raw)).body.status).toBe("duplicate");
    expect(await ticketsOf()).toHaveLength(1);
    await desk.jobs.drain();
    await desk.jobs.drain();
    const sent = await sink.waitFor(1);
    expect(sent[0]).toContain("Subject: We got it [#1]");
    expect(sent[0]).toContain("Auto-Submitted: auto-replied");
    expect(sent[0]).toContain("In-Reply-To: <first@customer.test>");
    expect(sent[0]).not.toContain("-- Acme");
    // Agents see what the customer was told: the auto-reply is on the ticket, by the system, sent.
    const autoReply = (await messagesOf(ticket!.id)).find((m) => m.direction === "outbound")!;
    expect(autoReply).toMatchObject({
      kind: "reply",
      author_type: "system",
      delivery_status: "sent",
      subject: "We got it",
    });
    expect(jsonOf(autoReply.to)).toEqual(["carol@customer.test"]);
    expect(sent[0]).toContain(`Message-ID: <${autoReply.id}@desk.test>`);
    const created = await rowsOf<{ data: unknown }>(
      desk.deps.db,
      sql`SELECT data FROM events WHERE workspace_id = ${workspace.id} AND type = 'message.created'`,
    );
    expect(created.filter((e) => JSON.stringify(jsonOf(e.data)).includes(String(autoReply.id)))).toHaveLength(1);
  });

  test("an agent reply is sent through the mailbox SMTP with threading headers; the customer's answer threads back", async () => {
    const [ticket] = await ticketsOf();
    const before = sink.messages().length;
    const reply = await desk.api("POST", `/v1/tickets/${ticket!.id}/messages`, {
      headers: owner.headers,
      body: { kind: "reply", body_html: "<p>We are on it.</p>", cc: ["boss@customer.test"] },
    });
    expect(reply.status).toBe(201);
    expect(reply.body.delivery_status).toBe("pending");
    await desk.jobs.drain();
    await sink.waitFor(before + 1);
    // smtp-sink names files by the second: find ours by its Message-ID rather than by order.
    const sent = sink.messages().find((m) => m.includes(`Message-ID: <${reply.body.id}@desk.test>`))!;
    expect(sent).toContain("From: Acme Support <support@acme.test>");
    expect(sent).toContain("To: carol@customer.test");
    expect(sent).toContain("Cc: boss@customer.test");
    expect(sent).toContain(`Message-ID: <${reply.body.id}@desk.test>`);
    expect(sent).toContain("In-Reply-To: <first@customer.test>");
    expect(sent).toContain("-- Acme");
    const stored = (await messagesOf(ticket!.id)).find((m) => m.id === reply.body.id)!;
    expect(stored.delivery_status).toBe("sent");
    const updated = await rowsOf<{ data: unknown }>(
      desk.deps.db,
      sql`SELECT data FROM events WHERE workspace_id = ${workspace.id} AND type = 'message.updated'`,
    );
    expect(updated.some((e) => JSON.stringify(jsonOf(e.data)).includes('"delivery_status":"sent"'))).toBe(true);

    await execute(desk.deps.db, sql`UPDATE tickets SET status = 'solved' WHERE id = ${ticket!.id}`);
    const answer = eml({
      subject: "Re: something else",
      headers: [`In-Reply-To: <${reply.body.id}@desk.test>`],
      body: "Thanks!\r\n\r\nOn Mon, 23 Nov 2026 Acme wrote:\r\n> We are on it.",
    });
    const res = await postInbound(answer);
    expect(res.status).toBe(202);
    expect(res.body.status).toBe("appended");
    expect(res.body.ticket_id).toBe(ticket!.id);
    const last = (await messagesOf(ticket!.id)).at(-1)!;
    expect(Number(last.has_quoted)).toBe(1);
    expect(last.body_text).toBe("Thanks!");
    expect((await ticketsOf())[0]!.status).toBe("open");
  });

  test("a bounce report marks our original bounced", async () => {
    const [ticket] = await ticketsOf();
    const reply = await desk.api("POST", `/v1/tickets/${ticket!.id}/messages`, {
      headers: owner.headers,
      body: { kind: "reply", body_html: "<p>Second</p>" },
    });
    await desk.jobs.drain();
    const dsn = [
      "From: MAILER-DAEMON@mx.customer.test",
      "To: support@acme.test",
      "Subject: Undelivered Mail Returned to Sender",
      "Message-ID: <dsn1@mx.customer.test>",
      "MIME-Version: 1.0",
      'Content-Type: multipart/report; report-type=delivery-status; boundary="b1"',
      "",
      "--b1",
      "Content-Type: text/plain",
      "",
      "Could not deliver.",
      "--b1",
      "Content-Type: message/delivery-status",
      "",
      "Reporting-MTA: dns; mx.customer.test",
      "",
      "Final-Recipient: rfc822; carol@customer.test",
      "Action: failed",
      "Status: 5.1.1",
      "Diagnostic-Code: smtp; 550 5.1.1 user unknown",
      "--b1",
      "Content-Type: text/rfc822-headers",
      "",
      `Message-ID: <${reply.body.id}@desk.test>`,
      "Subject: Re: Printer is on fire",
      "--b1--",
      "",
    ].join("\r\n");
    const res = await postInbound(dsn);
    expect(res.body.status).toBe("bounce");
    const stored = (await messagesOf(ticket!.id)).find((m) => m.id === reply.body.id)!;
    expect(stored.delivery_status).toBe("bounced");
    expect(String(stored.delivery_error)).toContain("user unknown");
    expect(await ticketsOf()).toHaveLength(1);
  });
});

describe("sender checks and the HTTP door", () => {
  test("wrong or missing secret answers 401 and stores nothing; unknown recipient 404", async () => {
    expect((await postInbound(eml(), "wrong-secret")).status).toBe(401);
    expect(
      (
        await desk.api("POST", "/v1/inbound/email?to=support@acme.test", {
          headers: { "content-type": "message/rfc822" },
          raw: eml(),
        })
      ).status,
    ).toBe(401);
    expect((await postInbound(eml(), undefined, "ghost@acme.test")).status).toBe(404);
  });

  test("DMARC fail from a trusted authserv-id sets auth_failed; forged results from others are ignored", async () => {
    const failed = await postInbound(
      eml({
        from: "ceo@bank.test",
        subject: "Wire money",
        headers: ["Authentication-Results: mx.desk.test; dmarc=fail header.from=bank.test"],
      }),
    );
    const msg = (await messagesOf(failed.body.ticket_id))[0]!;
    // A flag reads 0/1 on SQLite and a boolean on PostgreSQL.
    expect(Number(msg.auth_failed)).toBe(1);
    const forged = await postInbound(
      eml({ from: "ceo2@bank.test", subject: "Wire more", headers: ["Authentication-Results: evil.test; dmarc=fail"] }),
    );
    expect(Number((await messagesOf(forged.body.ticket_id))[0]!.auth_failed)).toBe(0);
  });

  test("a trusted form sender with DMARC pass is attributed to the visitor in Reply-To", async () => {
    const res = await postInbound(
      eml({
        from: "Website <forms@webflow.test>",
        subject: "Contact form",
        headers: [
          "Reply-To: Vera Visitor <vera@visitor.test>",
          "Authentication-Results: mx.desk.test; dmarc=pass header.from=webflow.test",
        ],
      }),
    );
    const msg = (await messagesOf(res.body.ticket_id))[0]!;
    expect(msg.from_email).toBe("vera@visitor.test");
    expect(msg.form_sender).toBe("forms@webflow.test");
    const notTrusted = await postInbound(
      eml({ from: "forms@webflow.test", subject: "Contact form 2", headers: ["Reply-To: vic@visitor.test"] }),
    );
    const plain = (await messagesOf(notTrusted.body.ticket_id))[0]!;
    expect(plain.from_email).toBe("forms@webflow.test");
    expect(plain.reply_to).toBe("vic@visitor.test");
    expect(plain.form_sender).toBe("");
  });

  test("automated mail never gets our auto-reply", async () => {
    const before = sink.messages().length;
    await postInbound(
      eml({ from: "ooo@customer.test", subject: "Out of office", headers: ["Auto-Submitted: auto-replied"] }),
    );
    await postInbound(
      eml({
        from: "news@list.test",
        subject: "Newsletter",
        headers: ["Precedence: bulk", "List-Id: <news.list.test>"],
      }),
    );
    await desk.jobs.drain();
    await Bun.sleep(100);
    const autoReplies = sink
      .messages()
      .slice(before)
      .filter((m) => m.includes("Auto-Submitted: auto-replied") && /To: (ooo|news)@/.test(m));
    expect(autoReplies).toEqual([]);
  });

  test("mail without From is refused and logged; without Message-ID it dedupes by content", async () => {
    const noFrom = await postInbound(eml({ from: "" }).replace(/^From: \r\n/, ""));
    expect(noFrom.status).toBe(202);
    expect(noFrom.body.status).toBe("refused");
    const raw = eml({ messageId: null, subject: "No id here" });
    expect((await postInbound(raw)).body.status).toBe("created");
    expect((await postInbound(raw)).body.status).toBe("duplicate");
  });

  test("a From address no contact can have is refused before any of its files is stored (found by the MIME fuzzer)", async () => {
    const files = async () =>
      Number((await rowsOf<{ n: number }>(desk.deps.db, sql`SELECT count(*) AS n FROM attachments`))[0]!.n);
    const before = await files();
    const raw = [
      "From: Carol <carol@customer\u0001test>",
      "To: support@corpus.test",
      "Subject: Bad sender with a file",
      `Message-ID: <bad-sender-${Date.now()}@corpus.test>`,
      'Content-Type: multipart/mixed; boundary="b"',
      "",
      "--b",
      "Content-Type: text/plain",
      "",
      "See the file",
      "--b",
      'Content-Type: application/octet-stream; name="x.bin"',
      "Content-Disposition: attachment",
      "Content-Transfer-Encoding: base64",
      "",
      "AAECAwQFBgc=",
      "--b--",
      "",
    ].join("\r\n");
    const res = await postInbound(raw);
    expect([res.status, res.body.status]).toEqual([202, "refused"]);
    expect(await files()).toBe(before);
  });
});

describe("inbound: the new ticket's events show what is stored", () => {
  test("ticket.created and message.created of an ingested mail equal fresh reads; the plain-text body is stored sanitized", async () => {
    const seqBefore = await lastSeq(desk, workspace.id);
    const text = `Tom & Jerry's "printer" <b>not bold</b> &amp; more\nsecond line\n\nnew paragraph ${Date.now()}`;
    // Marked automated so no auto-reply lands on the ticket before it is read back.
    const result = await postInbound(
      eml({
        from: `Dana <dana-${Date.now()}@customer.test>`,
        subject: "Events show the stored rows",
        body: text,
        headers: ["Auto-Submitted: auto-generated"],
      }),
    );
    expect(result.body.status).toBe("created");
    const events = (
      await rowsOf<{ type: string; data: unknown }>(
        desk.deps.db,
        sql`SELECT type, data FROM events WHERE workspace_id = ${workspace.id} AND seq > ${seqBefore} ORDER BY seq`,
      )
    ).map((e) => ({ type: e.type, data: jsonOf(e.data) as Record<string, unknown> }));
    // Earlier tests' background jobs may add their own events (message.updated): look at this mail's.
    const created = events.filter((e) => ["contact.created", "ticket.created", "message.created"].includes(e.type));
    expect(created.map((e) => e.type)).toEqual(["contact.created", "ticket.created", "message.created"]);
    const ticket = await desk.api("GET", `/v1/tickets/${result.body.ticket_id}`, { headers: owner.headers });
    const messages = await desk.api("GET", `/v1/tickets/${result.body.ticket_id}/messages`, { headers: owner.headers });
    expect(created[1]!.data).toEqual({ ticket: ticket.body });
    expect(created[2]!.data).toEqual({ ticket_id: result.body.ticket_id, message: messages.body.data[0] });
    expect(messages.body.data[0].id).toBe(result.body.message_id);
    expect(messages.body.data[0].body_html).toBe(
      `<p>Tom &amp; Jerry's "printer" &lt;b&gt;not bold&lt;/b&gt; &amp;amp; more<br />second line</p><p>new paragraph ${text.split("new paragraph ")[1]}</p>`,
    );
    expect(messages.body.data[0].body_text).toBe(text);
  });
});
