import { afterAll, describe, expect, test } from "bun:test";
import { randomBytes } from "node:crypto";
import { createWorkspaceWithOwner, type Member } from "../../test/factories";
import { startTestDesk } from "../../test/harness";
import { freePort } from "../../test/peers/dovecot";
import { sendRawSmtp } from "../../test/peers/smtp-send";
import { startSmtpSink } from "../../test/peers/smtp-sink";
import { normalizedSubject, stripSubjectPrefixes } from "../mail/mail.subject";
import { sql } from "drizzle-orm";
import { execute, rowsOf } from "../db/store";

// Outlook and Exchange often send a reply with Thread-Index and Thread-Topic but no In-Reply-To:
// these mails go through the real SMTP receiver and must land on the ticket they answer.
const sink = await startSmtpSink();
const smtpPort = await freePort();
const desk = await startTestDesk({
  env: { DESK_SMTP_PORT: String(smtpPort), DESK_INBOUND_DOMAIN: "desk.test", DESK_ALLOWED_PRIVATE_HOSTS: "127.0.0.1" },
});
afterAll(() => sink.stop());

let seq = 0;
async function workspaceWithMailbox(address: string): Promise<{ workspaceId: string; owner: Member }> {
  const { workspace, owner } = await createWorkspaceWithOwner(desk);
  const res = await desk.api("POST", "/v1/mailboxes", {
    headers: owner.headers,
    body: {
      name: "Support",
      email: address,
      outbound_kind: "smtp",
      config: { smtp_host: "127.0.0.1", smtp_port: sink.port, smtp_tls: "none" },
    },
  });
  if (res.status !== 201) throw new Error(JSON.stringify(res.body));
  return { workspaceId: workspace.id, owner };
}

const a = await workspaceWithMailbox("help@outlook-a.test");
const b = await workspaceWithMailbox("help@outlook-b.test");

/** A fresh Outlook conversation header: 22 bytes, base64. */
const newThreadIndex = () => randomBytes(22).toString("base64");
/** The index of a reply in that conversation: the header and one 5-byte child block. */
const childOf = (index: string) =>
  Buffer.concat([Buffer.from(index, "base64").subarray(0, 22), randomBytes(5)]).toString("base64");

function outlookMail(opts: {
  from: string;
  to: string;
  subject: string;
  threadIndex?: string;
  threadTopic?: string;
  body?: string;
}): Uint8Array {
  return new TextEncoder().encode(
    [
      `From: ${opts.from}`,
      `To: ${opts.to}`,
      `Subject: ${opts.subject}`,
      ...(opts.threadTopic !== undefined ? [`Thread-Topic: ${opts.threadTopic}`] : []),
      ...(opts.threadIndex ? [`Thread-Index: ${opts.threadIndex}`] : []),
      `Message-ID: <outlook.${Date.now()}.${seq++}@eur.prod.outlook.test>`,
      "Date: Mon, 23 Nov 2026 10:00:00 +0000",
      "MIME-Version: 1.0",
      "Content-Type: text/plain; charset=utf-8",
      "X-MS-Has-Attach:",
      "",
      opts.body ?? "Any news?",
      "",
    ].join("\r\n"),
  );
}

/** Sends through the SMTP receiver; answers the ticket the mail landed on. */
async function deliver(mail: Parameters<typeof outlookMail>[0]): Promise<string> {
  const replies = await sendRawSmtp(smtpPort, outlookMail(mail), {
    from: /<([^>]+)>/.exec(mail.from)?.[1] ?? mail.from,
    to: [mail.to],
  });
  expect(replies.at(-2)?.code).toBe(250);
  const row = (
    await rowsOf<{ ticket_id: string }>(
      desk.deps.db,
      sql`SELECT ticket_id FROM messages WHERE direction = 'inbound' ORDER BY created_at DESC, id DESC LIMIT 1`,
    )
  )[0];
  return row!.ticket_id;
}

const ticketCount = async (workspaceId: string) =>
  (
    await rowsOf<{ n: number }>(
      desk.deps.db,
      sql`SELECT count(*) AS n FROM tickets WHERE workspace_id = ${workspaceId}`,
    )
  )[0]!.n;
const setTicket = async (id: string, set: string) =>
  await execute(desk.deps.db, sql`UPDATE tickets SET ${sql.raw(set)} WHERE id = ${id}`);

describe("threading Outlook replies that lost In-Reply-To", () => {
  test("subjects normalise: reply and forward prefixes of many languages, repeated, any case; ticket tags", () => {
    expect(normalizedSubject("RE: AW: Fwd: WG: SV: VS: Antw: TR: RV: FW: Re[2]: Printer  down [#12]")).toBe(
      "printer down",
    );
    expect(normalizedSubject("aw:re:  PRINTER down")).toBe("printer down");
    expect(stripSubjectPrefixes("Re: Invoice: March")).toBe("Invoice: March");
    expect(normalizedSubject("Reply needed")).toBe("reply needed");
  });

  test("our reply carries Thread-Index and Thread-Topic; the customer's Outlook reply with only those threads back", async () => {
    const first = await deliver({
      from: "Dana <dana@customer.test>",
      to: "help@outlook-a.test",
      subject: "Screen flickers",
    });
    const ticket = (
      await rowsOf<{ number: number }>(desk.deps.db, sql`SELECT number FROM tickets WHERE id = ${first}`)
    )[0]!;
    const reply = await desk.api("POST", `/v1/tickets/${first}/messages`, {
      headers: a.owner.headers,
      body: { kind: "reply", body_html: "<p>Which model?</p>" },
    });
    expect(reply.status).toBe(201);
    await desk.jobs.drain();
    const sent = await sink.waitForMatch((m) => m.includes(`Message-ID: <${reply.body.id}@desk.test>`));
    expect(sent).toContain("Thread-Topic: Screen flickers");
    const ourIndex = /^Thread-Index: (\S+)/m.exec(sent)?.[1];
    expect(Buffer.from(ourIndex!, "base64").length).toBe(27);
    // Solved since: the subject rule (open or pending only) cannot be what threads it.
    await setTicket(first, "status = 'solved'");
    const count = await ticketCount(a.workspaceId);
    const answer = await deliver({
      from: "Dana <dana@customer.test>",
      to: "help@outlook-a.test",
      subject: "RE: the model you asked about",
      threadTopic: "Screen flickers",
      threadIndex: childOf(ourIndex!),
    });
    expect(answer).toBe(first);
    expect(await ticketCount(a.workspaceId)).toBe(count);
    const status = (
      await rowsOf<{ status: string }>(desk.deps.db, sql`SELECT status FROM tickets WHERE id = ${first}`)
    )[0]!.status;
    expect(status).toBe("open");
    expect(ticket.number).toBeGreaterThan(0);
  });

  test("the customer's own Thread-Index: a later mail of that conversation threads; our replies continue it", async () => {
    const index = newThreadIndex();
    const first = await deliver({
      from: "Eve <eve@customer.test>",
      to: "help@outlook-a.test",
      subject: "Login fails",
      threadTopic: "Login fails",
      threadIndex: index,
    });
    await setTicket(first, "status = 'solved'");
    const follow = await deliver({
      from: "Eve <eve@customer.test>",
      to: "help@outlook-a.test",
      subject: "RE: Login fails - screenshot",
      threadTopic: "Login fails",
      threadIndex: childOf(index),
    });
    expect(follow).toBe(first);
    // Our reply on that ticket continues the customer's conversation, not one of its own.
    const reply = await desk.api("POST", `/v1/tickets/${first}/messages`, {
      headers: a.owner.headers,
      body: { kind: "reply", body_html: "<p>Thanks</p>" },
    });
    await desk.jobs.drain();
    const sent = await sink.waitForMatch((m) => m.includes(`Message-ID: <${reply.body.id}@desk.test>`));
    const ours = Buffer.from(/^Thread-Index: (\S+)/m.exec(sent)![1]!, "base64");
    expect(ours.subarray(0, 22).equals(Buffer.from(index, "base64"))).toBe(true);
  });

  test("by normalised subject: the same contact's one open or pending ticket of the last 30 days", async () => {
    const first = await deliver({
      from: "Finn <finn@customer.test>",
      to: "help@outlook-a.test",
      subject: "Invoice 2231 is wrong",
    });
    await setTicket(first, "status = 'pending'");
    const reply = await deliver({
      from: "Finn <finn@customer.test>",
      to: "help@outlook-a.test",
      subject: "AW: Re: [#99999] INVOICE 2231 is wrong",
      threadTopic: "Invoice 2231 is wrong",
      threadIndex: newThreadIndex(),
    });
    expect(reply).toBe(first);
    // Thread-Topic alone names the subject when a client translated the subject line
    const viaTopic = await deliver({
      from: "Finn <finn@customer.test>",
      to: "help@outlook-a.test",
      subject: "Antw: Rechnung 2231",
      threadTopic: "Invoice 2231 is wrong",
    });
    expect(viaTopic).toBe(first);
    // an encoded Thread-Topic (RFC 2047, as Outlook writes non-ASCII subjects) is read decoded
    const umlaut = await deliver({
      from: "Finn <finn@customer.test>",
      to: "help@outlook-a.test",
      subject: "=?utf-8?Q?Gr=C3=B6=C3=9Fe_passt_nicht?=",
    });
    const encoded = await deliver({
      from: "Finn <finn@customer.test>",
      to: "help@outlook-a.test",
      subject: "AW: Ihre Anfrage",
      threadTopic: `=?utf-8?B?${Buffer.from("Größe passt nicht").toString("base64")}?=`,
    });
    expect(encoded).toBe(umlaut);
  });

  test("never across contacts or workspaces, never a guess between two tickets, never a stale or new-looking mail", async () => {
    const index = newThreadIndex();
    const gina = await deliver({
      from: "Gina <gina@customer.test>",
      to: "help@outlook-a.test",
      subject: "Broken hinge",
      threadIndex: index,
    });
    // another contact: neither the conversation key nor the subject threads
    const other = await deliver({
      from: "Hugo <hugo@elsewhere.test>",
      to: "help@outlook-a.test",
      subject: "RE: Broken hinge",
      threadTopic: "Broken hinge",
      threadIndex: childOf(index),
    });
    expect(other).not.toBe(gina);
    // another workspace, same contact address and key: its own new ticket
    const countB = await ticketCount(b.workspaceId);
    const elsewhere = await deliver({
      from: "Gina <gina@customer.test>",
      to: "help@outlook-b.test",
      subject: "RE: Broken hinge",
      threadTopic: "Broken hinge",
      threadIndex: childOf(index),
    });
    expect(elsewhere).not.toBe(gina);
    expect(await ticketCount(b.workspaceId)).toBe(countB + 1);
    // not a reply at all (no prefix, no child index): the same subject again is a new request
    const fresh = await deliver({
      from: "Gina <gina@customer.test>",
      to: "help@outlook-a.test",
      subject: "Broken hinge",
    });
    expect(fresh).not.toBe(gina);
    // now two open tickets of that subject: a reply matching only by subject opens a third
    const ambiguous = await deliver({
      from: "Gina <gina@customer.test>",
      to: "help@outlook-a.test",
      subject: "RE: Broken hinge",
    });
    expect([gina, fresh]).not.toContain(ambiguous);
    // older than 30 days: no longer found by subject
    const old = await deliver({ from: "Ivan <ivan@customer.test>", to: "help@outlook-a.test", subject: "Old thing" });
    const longAgo = new Date(desk.deps.clock.now().getTime() - 31 * 24 * 3600 * 1000).toISOString();
    await setTicket(old, `last_message_at = '${longAgo}'`);
    const late = await deliver({
      from: "Ivan <ivan@customer.test>",
      to: "help@outlook-a.test",
      subject: "RE: Old thing",
    });
    expect(late).not.toBe(old);
  });
});
