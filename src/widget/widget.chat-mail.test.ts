import { afterAll, describe, expect, test } from "bun:test";
import { ALL_SCOPES, createKey, createWorkspaceWithOwner } from "../../test/factories";
import { startTestDesk } from "../../test/harness";
import { freePort } from "../../test/peers/dovecot";
import { sendRawSmtp } from "../../test/peers/smtp-send";
import { startSmtpSink } from "../../test/peers/smtp-sink";
import { simpleParser } from "mailparser";
import { manualClock } from "../lib/clock";

// A visitor who left an email and closed the page gets the agents' unseen chat replies by mail,
// from a real mailbox over a real SMTP peer, and answers by mail through the real SMTP receiver.
const sink = await startSmtpSink();
const smtpPort = await freePort();
const clock = manualClock(new Date());
const desk = await startTestDesk({
  clock,
  env: { DESK_SMTP_PORT: String(smtpPort), DESK_INBOUND_DOMAIN: "desk.test", DESK_ALLOWED_PRIVATE_HOSTS: "127.0.0.1" },
});
afterAll(() => sink.stop());
const CHAT_MAIL_DELAY_MS = desk.deps.config.chatMailDelayMs;

type Setup = Awaited<ReturnType<typeof setup>>;
let n = 0;
async function setup() {
  const { workspace, owner } = await createWorkspaceWithOwner(desk);
  // Keys outlive the minutes this file moves the clock by (a session's access token would not).
  const key = await createKey(desk, owner, ALL_SCOPES);
  const headers = { ...key.headers, "desk-workspace": workspace.id };
  const address = `chat${++n}@widget-mail.test`;
  const mailbox = await desk.api("POST", "/v1/mailboxes", {
    headers: owner.headers,
    body: {
      name: "Chat",
      email: address,
      display_name: "Acme Chat",
      outbound_kind: "smtp",
      config: { smtp_host: "127.0.0.1", smtp_port: sink.port, smtp_tls: "none" },
    },
  });
  expect(mailbox.status).toBe(201);
  return { workspace, owner, headers, address, mailboxId: mailbox.body.id as string };
}

async function visitorChat(s: Setup, email: string | null, text = "Where is my order?") {
  const session = await desk.api("POST", "/v1/widget/session", {
    body: { key: s.workspace.widgetKey, ...(email ? { email, name: "Vera Visitor" } : {}) },
  });
  expect(session.status).toBe(200);
  const visitor = { authorization: `Visitor ${session.body.visitor_token}` };
  const started = await desk.api("POST", "/v1/widget/conversations", { headers: visitor, body: { body: text } });
  expect(started.status).toBe(201);
  return { visitor, ticketId: started.body.conversation.id as string, number: started.body.conversation.number };
}

async function agentReply(s: Setup, ticketId: string, html: string, kind: "reply" | "note" = "reply") {
  const res = await desk.api("POST", `/v1/tickets/${ticketId}/messages`, {
    headers: s.headers,
    body: { kind, body_html: html },
  });
  expect(res.status).toBe(201);
  return res.body as { id: string };
}

async function pass(ms: number) {
  // Reactions to what happened so far run at its time, before the clock moves (on PostgreSQL a
  // consumer's wake-up after a commit may not have run yet).
  await desk.consumers.drain();
  clock.advance(ms);
  await desk.consumers.drain();
  await desk.jobs.drain();
}

const mailsTo = (address: string) => sink.messages().filter((m) => m.includes(`To: ${address}`));
const repliesTo = (address: string) => mailsTo(address).filter((m) => !m.includes("Confirm your email"));

/** The confirmation link in the one mail an unconfirmed address gets. */
async function confirmationLinkFor(email: string): Promise<string> {
  const mail = await sink.waitForMatch((m) => m.includes(`To: ${email}`) && m.includes("Confirm your email"));
  const unfolded = mail.replace(/=\r?\n/g, "").replace(/=3D/g, "=");
  return /https?:\/\/[^\s"<>]+\/chat-email\/[A-Za-z0-9_-]+/.exec(unfolded)![0]!;
}

/** The address's owner confirms from the mail: the page's button POSTs to the link. */
async function confirmEmail(email: string): Promise<void> {
  const link = new URL(await confirmationLinkFor(email));
  const res = await desk.fetch(new Request(`http://localhost${link.pathname}`, { method: "POST" }));
  expect(res.status).toBe(200);
  await desk.jobs.drain();
}

describe("unseen chat replies by email", () => {
  test("a German visitor's confirmation and reply mails are German (the widget taught the contact's language)", async () => {
    const s = await setup();
    const email = "lena@visitor.test";
    const session = await desk.api("POST", "/v1/widget/session", {
      body: { key: s.workspace.widgetKey, email, name: "Lena", locale: "de" },
    });
    const visitor = { authorization: `Visitor ${session.body.visitor_token}` };
    const started = await desk.api("POST", "/v1/widget/conversations", { headers: visitor, body: { body: "Hallo" } });
    expect(started.status).toBe(201);
    await agentReply(s, started.body.conversation.id, "<p>Antwort eins</p>");
    await pass(CHAT_MAIL_DELAY_MS + 1000);
    const raw = await sink.waitForMatch((m) => m.includes(`To: ${email}`));
    const confirmation = await simpleParser(raw);
    expect(confirmation.subject).toContain("Bestätigen Sie Ihre E-Mail-Adresse");
    expect(confirmation.text).toContain("Wenn Sie es nicht waren, ignorieren Sie diese E-Mail");
    expect(confirmation.html).toContain("E-Mail-Adresse bestätigen</a>");
    const link = /https?:\/\/[^\s"<>]+\/chat-email\/[A-Za-z0-9_-]+/.exec(confirmation.text ?? "")![0]!;
    const res = await desk.fetch(new Request(`http://localhost${new URL(link).pathname}`, { method: "POST" }));
    expect(res.status).toBe(200);
    await desk.jobs.drain();
    const reply = await simpleParser(
      await sink.waitForMatch((m) => m.includes(`To: ${email}`) && m !== raw && m.includes("Antwort eins")),
    );
    expect(reply.text).toContain("Antworten Sie einfach auf diese E-Mail");
  });

  test("unseen after the delay: one mail with every unseen reply, from the mailbox, threaded; the answer returns to the chat", async () => {
    expect(CHAT_MAIL_DELAY_MS).toBe(2 * 60_000);
    const s = await setup();
    const email = "vera@visitor.test";
    const { visitor, ticketId, number } = await visitorChat(s, email);
    await agentReply(s, ticketId, "<p>Let me check that for you.</p>");
    await pass(30_000);
    await agentReply(s, ticketId, "<p>It ships <b>tomorrow</b>.</p>");
    await agentReply(s, ticketId, "<p>Internal: carrier delayed</p>", "note");
    await pass(60_000);
    expect(mailsTo(email)).toHaveLength(0);
    await pass(40_000);
    // The typed address is asked first; the replies wait for its owner.
    await confirmEmail(email);
    const mail = await sink.waitForMatch((m) => m.includes(`To: ${email}`) && m.includes("It ships"));
    expect(repliesTo(email)).toHaveLength(1);
    expect(mail).toContain(`From: Acme Chat <${s.address}>`);
    expect(mail).toContain(`Reply-To: ${s.address}`);
    expect(mail).toContain(`[#${number}]`);
    expect(mail).toContain("Let me check that for you.");
    expect(mail).toContain("It ships");
    expect(mail).not.toContain("carrier delayed");
    // The later reply's own job finds it mailed already: still one mail.
    await pass(5 * 60_000);
    expect(repliesTo(email)).toHaveLength(1);

    const messageId = /^Message-ID: (<[^>]+>)/m.exec(mail)![1]!;
    const answer = [
      `From: Vera <${email}>`,
      `To: ${s.address}`,
      "Subject: Re: your chat",
      `Message-ID: <answer.${Date.now()}@visitor.test>`,
      `In-Reply-To: ${messageId}`,
      `References: ${messageId}`,
      "Content-Type: text/plain; charset=utf-8",
      "",
      "Great, thanks!",
      "",
    ].join("\r\n");
    const replies = await sendRawSmtp(smtpPort, new TextEncoder().encode(answer), { from: email, to: [s.address] });
    expect(replies.at(-2)?.code).toBe(250);
    const thread = await desk.api("GET", `/v1/widget/conversations/${ticketId}/messages`, { headers: visitor });
    expect(thread.body.data.at(-1)).toMatchObject({ direction: "inbound", body_text: "Great, thanks!" });
  });

  test("a reply the visitor saw in time is never mailed; a later unseen one goes alone", async () => {
    const s = await setup();
    const email = "walt@visitor.test";
    const { visitor, ticketId } = await visitorChat(s, email);
    const first = await agentReply(s, ticketId, "<p>Seen this one</p>");
    await pass(60_000);
    const seen = await desk.api("POST", `/v1/widget/conversations/${ticketId}/seen`, {
      headers: visitor,
      body: { message_id: first.id },
    });
    expect(seen.status).toBe(204);
    await pass(5 * 60_000);
    expect(mailsTo(email)).toHaveLength(0);
    await agentReply(s, ticketId, "<p>But not this one</p>");
    await pass(CHAT_MAIL_DELAY_MS + 1000);
    await confirmEmail(email);
    const mail = await sink.waitForMatch((m) => m.includes(`To: ${email}`) && m.includes("But not this one"));
    expect(repliesTo(email)).toHaveLength(1);
    expect(mail).not.toContain("Seen this one");
  });

  test("no email, no mail; the configured sender mailbox; the seen route's refusals", async () => {
    const s = await setup();
    const anonymous = await visitorChat(s, null);
    await agentReply(s, anonymous.ticketId, "<p>Hello stranger</p>");
    await pass(CHAT_MAIL_DELAY_MS + 1000);
    expect(sink.messages().some((m) => m.includes("Hello stranger"))).toBe(false);

    // A second mailbox configured as the chat sender
    const sales = `sales${n}@widget-mail.test`;
    const other = await desk.api("POST", "/v1/mailboxes", {
      headers: s.owner.headers,
      body: {
        name: "Sales",
        email: sales,
        outbound_kind: "smtp",
        config: { smtp_host: "127.0.0.1", smtp_port: sink.port, smtp_tls: "none" },
      },
    });
    const set = await desk.api("PATCH", "/v1/widget/settings", {
      headers: s.owner.headers,
      body: { reply_mailbox_id: other.body.id },
    });
    expect(set.status).toBe(200);
    expect(set.body.reply_mailbox_id).toBe(other.body.id);
    const stranger = await setup();
    const refused = await desk.api("PATCH", "/v1/widget/settings", {
      headers: s.owner.headers,
      body: { reply_mailbox_id: stranger.mailboxId },
    });
    expect(refused.status).toBe(422);
    expect(refused.body.errors[0].location).toBe("body.reply_mailbox_id");

    const email = "xena@visitor.test";
    const { visitor, ticketId } = await visitorChat(s, email);
    const reply = await agentReply(s, ticketId, "<p>From sales</p>");
    await pass(CHAT_MAIL_DELAY_MS + 1000);
    await confirmEmail(email);
    const mail = await sink.waitForMatch((m) => m.includes(`To: ${email}`) && m.includes("From sales"));
    expect(mail).toContain(`From: Sales <${sales}>`);

    // another visitor's conversation 404, a message of another conversation 422, no credential 401
    const nosy = await visitorChat(s, "yuri@visitor.test");
    const seen = (headers: Record<string, string>, id: string, body: unknown) =>
      desk.api("POST", `/v1/widget/conversations/${id}/seen`, { headers, body });
    expect((await seen(nosy.visitor, ticketId, { message_id: reply.id })).status).toBe(404);
    const wrong = await seen(visitor, ticketId, { message_id: "01900000-0000-7000-8000-000000000000" });
    expect(wrong.status).toBe(422);
    expect(wrong.body.errors[0].location).toBe("body.message_id");
    expect((await seen(visitor, ticketId, {})).status).toBe(422);
    expect((await seen({}, ticketId, { message_id: reply.id })).status).toBe(401);
  });
});

describe("a typed email is its owner's to confirm", () => {
  test("until confirmed it gets one fixed confirmation mail a day, nothing of the chat; reading the link changes nothing", async () => {
    const s = await setup();
    const email = "victim@visitor.test";
    const first = await visitorChat(s, email, "Send this stranger our replies");
    await agentReply(s, first.ticketId, "<p>Secret-ish answer one</p>");
    await pass(CHAT_MAIL_DELAY_MS + 1000);
    const link = await confirmationLinkFor(email);
    const confirmation = mailsTo(email)[0]!;
    // Fixed text: nothing the visitor typed (their message) or an agent wrote reaches the address.
    expect(confirmation).not.toContain("Secret-ish");
    expect(confirmation).not.toContain("Send this stranger");
    expect(confirmation).toContain(`From: Acme Chat <${s.address}>`);

    // Another chat with the same address, and more replies: no second mail within the day.
    const second = await visitorChat(s, email, "Again");
    await agentReply(s, second.ticketId, "<p>Secret-ish answer two</p>");
    await agentReply(s, first.ticketId, "<p>Secret-ish answer three</p>");
    await pass(CHAT_MAIL_DELAY_MS + 1000);
    await pass(60 * 60_000);
    expect(mailsTo(email)).toHaveLength(1);

    // A link scanner's GET shows the question and confirms nothing.
    const path = new URL(link).pathname;
    const read = await desk.fetch(new Request(`http://localhost${path}`));
    expect(read.status).toBe(200);
    expect(read.headers.get("referrer-policy")).toBe("no-referrer");
    expect(await read.text()).toContain('<form method="post"');
    await pass(60 * 60_000);
    expect(repliesTo(email)).toHaveLength(0);
    const unknown = await desk.fetch(new Request("http://localhost/chat-email/not-a-real-token-at-all-0123456789"));
    expect(unknown.status).toBe(404);

    // Confirmed: the first chat's unseen replies go out, in one mail.
    await confirmEmail(email);
    const mail = await sink.waitForMatch((m) => m.includes(`To: ${email}`) && m.includes("Secret-ish answer three"));
    expect(mail).toContain("Secret-ish answer one");
    expect(repliesTo(email)).toHaveLength(1);
  });

  test("a visitor the customer's site vouched for (user_hash) gets the replies without being asked", async () => {
    const s = await setup();
    const rotated = await desk.api("POST", "/v1/workspace/widget-secret/rotate", { headers: s.owner.headers });
    expect(rotated.status).toBe(200);
    const secret = rotated.body.secret as string;
    const userId = "customer-42";
    const userHash = new Bun.CryptoHasher("sha256", secret).update(userId).digest("hex");
    const email = "vouched@visitor.test";
    const session = await desk.api("POST", "/v1/widget/session", {
      body: { key: s.workspace.widgetKey, email, name: "Vouched", user_id: userId, user_hash: userHash },
    });
    expect(session.status).toBe(200);
    const started = await desk.api("POST", "/v1/widget/conversations", {
      headers: { authorization: `Visitor ${session.body.visitor_token}` },
      body: { body: "Hi" },
    });
    expect(started.status).toBe(201);
    await agentReply(s, started.body.conversation.id, "<p>Straight to you</p>");
    await pass(CHAT_MAIL_DELAY_MS + 1000);
    await sink.waitForMatch((m) => m.includes(`To: ${email}`) && m.includes("Straight to you"));
    expect(mailsTo(email).some((m) => m.includes("Confirm your email"))).toBe(false);
  });

  test("a chat's unconfirmed address gets no rating request on solve; once confirmed it does", async () => {
    const s = await setup();
    const csat = await desk.api("PATCH", "/v1/workspace", {
      headers: s.owner.headers,
      body: { settings: { csat_enabled: true } },
    });
    expect(csat.status).toBe(200);
    const email = "rater@visitor.test";
    const { ticketId } = await visitorChat(s, email);
    await agentReply(s, ticketId, "<p>All done</p>");
    const solve = (status: string) =>
      desk.api("PATCH", `/v1/tickets/${ticketId}`, { headers: s.headers, body: { status } });
    expect((await solve("solved")).status).toBe(200);
    await pass(desk.deps.config.csatDelayMs + CHAT_MAIL_DELAY_MS + 1000);
    await confirmationLinkFor(email);
    expect(mailsTo(email).some((m) => m.includes("How did we do?"))).toBe(false);

    await confirmEmail(email);
    expect((await solve("open")).status).toBe(200);
    expect((await solve("solved")).status).toBe(200);
    await pass(desk.deps.config.csatDelayMs + 1000);
    await sink.waitForMatch((m) => m.includes(`To: ${email}`) && m.includes("How did we do?"));
  });
});
