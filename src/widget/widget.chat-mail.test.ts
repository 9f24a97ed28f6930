import { afterAll, describe, expect, test } from "bun:test";
import { ALL_SCOPES, createKey, createWorkspaceWithOwner } from "../../test/factories";
import { startTestDesk } from "../../test/harness";
import { freePort } from "../../test/peers/dovecot";
import { sendRawSmtp } from "../../test/peers/smtp-send";
import { startSmtpSink } from "../../test/peers/smtp-sink";
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
  const key = createKey(desk, owner, ALL_SCOPES);
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
  clock.advance(ms);
  await desk.consumers.drain();
  await desk.jobs.drain();
}

const mailsTo = (address: string) => sink.messages().filter((m) => m.includes(`To: ${address}`));

describe("unseen chat replies by email", () => {
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
    const mail = await sink.waitForMatch((m) => m.includes(`To: ${email}`) && m.includes("It ships"));
    expect(mailsTo(email)).toHaveLength(1);
    expect(mail).toContain(`From: Acme Chat <${s.address}>`);
    expect(mail).toContain(`Reply-To: ${s.address}`);
    expect(mail).toContain(`[#${number}]`);
    expect(mail).toContain("Let me check that for you.");
    expect(mail).toContain("It ships");
    expect(mail).not.toContain("carrier delayed");
    // The later reply's own job finds it mailed already: still one mail.
    await pass(5 * 60_000);
    expect(mailsTo(email)).toHaveLength(1);

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
    const mail = await sink.waitForMatch((m) => m.includes(`To: ${email}`) && m.includes("But not this one"));
    expect(mailsTo(email)).toHaveLength(1);
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
