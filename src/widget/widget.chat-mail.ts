import { first } from "../db/store";
/**
 * Chat replies by email: an agent's chat reply the visitor has not seen in the widget
 * DESK_CHAT_MAIL_DELAY (default 2 minutes) after it was sent is mailed to them ("Leave your email so
 * we can reply even after you close this page"): they closed the page, or left it open unread.
 * Replies seen within the delay are never mailed.
 */
import { and, desc, eq, isNotNull } from "drizzle-orm";
import { z } from "zod";
import type { VisitorContext } from "../auth/context";
import { attachmentLinks } from "../attachments/attachments.public";
import { contactRefsOf } from "../contacts/contacts.public";
import type { Queryable, Tx } from "../db/database";
import { transact } from "../db/tx";
import type { Deps } from "../deps";
import { type ConsumerContext, defineConsumer } from "../events/consumers";
import { defineJob, type JobContext } from "../jobs/define";
import { enqueue } from "../jobs/enqueue";
import { invalidAt, notFound } from "../lib/errors";
import { escapeHtml } from "../lib/sanitize";
import { t } from "../i18n/i18n";
import type { Locale } from "../i18n/locales";
import { localeForContact, sendCustomerMail } from "../outbound/outbound.public";
import {
  chatContactOfTicket,
  chatTicketOfContact,
  messageCreated,
  publicMessagesOf,
  ticketOfWorkspace,
  type MessageJson,
} from "../tickets/tickets.public";
import { widgetWorkspaceOf } from "../workspaces/workspaces.public";
import { askToConfirmChatEmail, chatEmailConfirmed } from "./widget.email-confirm";
import { widgetSettingsOf } from "./widget.settings";
import { chatReplyMarks, visitorSessions } from "./widget.table";

/** One mail carries at most this many replies (the newest); a longer backlog is in the chat itself. */
const MAX_REPLIES_PER_MAIL = 20;

/**
 * Where a visitor's replies go: their contact's email, else the address they typed into the widget
 * when another contact already held it (kept on their session only). Mailing them the replies to a
 * chat they started with that address is what they asked for, and nothing else goes there.
 */
async function visitorEmailOf(db: Queryable, workspaceId: string, contactId: string): Promise<string | null> {
  const own = (await contactRefsOf(db, [contactId])).get(contactId)?.email;
  if (own) return own;
  const claimed = first(
    await db
      .select({ email: visitorSessions.claimedEmail })
      .from(visitorSessions)
      .where(
        and(
          eq(visitorSessions.workspaceId, workspaceId),
          eq(visitorSessions.contactId, contactId),
          isNotNull(visitorSessions.claimedEmail),
        ),
      )
      .orderBy(desc(visitorSessions.lastSeenAt))
      .limit(1),
  );
  return claimed?.email ?? null;
}

const marksOf = async (db: Queryable, ticketId: string) =>
  first(await db.select().from(chatReplyMarks).where(eq(chatReplyMarks.ticketId, ticketId)).limit(1));

async function setMark(
  tx: Tx,
  mark: { workspaceId: string; ticketId: string; name: "seenThrough" | "mailedThrough"; at: string; now: Date },
) {
  const { workspaceId, ticketId, at } = mark;
  const current = await marksOf(tx, ticketId);
  // Marks only move forward: a late or replayed report never brings a reply back as unseen.
  if ((current?.[mark.name] ?? "") >= at) return;
  const now = mark.now.toISOString();
  await tx
    .insert(chatReplyMarks)
    .values({ ticketId, workspaceId, [mark.name]: at, updatedAt: now })
    .onConflictDoUpdate({ target: chatReplyMarks.ticketId, set: { [mark.name]: at, updatedAt: now } });
}

/**
 * The visitor saw their conversation up to one of its messages (the widget reports it while the
 * thread is on screen): replies up to that message are not mailed. 404 for another visitor's
 * conversation, 422 for a message not in it.
 */
export async function markConversationSeen(
  deps: Deps,
  visitor: VisitorContext,
  ticketId: string,
  messageId: string,
): Promise<void> {
  const ticket = await chatTicketOfContact(deps.db, visitor.workspaceId, visitor.contactId, ticketId);
  if (!ticket) throw notFound("Conversation");
  const message = (await publicMessagesOf(deps.db, ticket.id, attachmentLinks(deps))).find((m) => m.id === messageId);
  if (!message) throw invalidAt("body.message_id", "Not a message of this conversation.");
  await transact(
    deps.db,
    async (tx) =>
      await setMark(tx, {
        workspaceId: visitor.workspaceId,
        ticketId: ticket.id,
        name: "seenThrough",
        at: message.created_at,
        now: deps.clock.now(),
      }),
  );
}

const ChatMailPayload = z.object({ workspace_id: z.string(), ticket_id: z.string(), message_id: z.string() });

/** An agent's answer to the visitor: a forward went to someone else and is never the visitor's to read. */
const isAgentReply = (m: Pick<MessageJson, "kind" | "direction"> & { forward?: boolean }) =>
  m.kind === "reply" && m.direction === "outbound" && m.forward !== true;

function renderMail(replies: MessageJson[], fallbackName: string, locale: Locale) {
  const nameOf = (m: MessageJson) => m.author.user?.name || fallbackName;
  const stamp = (m: MessageJson) => `${m.created_at.slice(0, 16).replace("T", " ")} UTC`;
  const files = (m: MessageJson) =>
    m.attachments.length
      ? t(locale, "mail.chat_reply_files", { files: m.attachments.map((a) => a.filename).join(", ") })
      : "";
  const closing = t(locale, "mail.chat_reply_closing");
  const html = [
    ...replies.map(
      (m) =>
        `<p><strong>${escapeHtml(nameOf(m))}</strong> · ${escapeHtml(stamp(m))}</p>` +
        // Stored replies are sanitized HTML already; names and file names are escaped here.
        `<div>${m.body_html}</div>${files(m) ? `<p>${escapeHtml(files(m))}</p>` : ""}`,
    ),
    `<p>${escapeHtml(closing)}</p>`,
  ].join("");
  const text = [
    ...replies.map((m) => [`${nameOf(m)} · ${stamp(m)}`, m.body_text, files(m)].filter(Boolean).join("\n")),
    closing,
  ].join("\n\n");
  return { html, text };
}

/**
 * Mails the visitor their unseen agent replies, DESK_CHAT_MAIL_DELAY after one was sent: one job per
 * reply, but the first to run takes every reply not yet seen or mailed into one mail, so a later
 * job finds its reply mailed (or seen) and sends nothing. Runs one at a time so two never mail the
 * same replies. From the ticket's chat sender (the widget's configured mailbox, else the workspace's
 * first), threaded on the ticket: the visitor's answer by email lands in the same chat.
 */
export const chatReplyMailJob = defineJob({
  name: "widget.chat_reply_mail",
  lane: "customer",
  schema: ChatMailPayload,
  retry: { maxAttempts: 6, baseDelayMs: 30_000, maxDelayMs: 30 * 60_000 },
  concurrency: 1,
  async handler(payload, run: JobContext<Deps>) {
    const { deps } = run;
    const ticket = await ticketOfWorkspace(deps.db, payload.workspace_id, payload.ticket_id);
    if (ticket?.channel !== "chat" || ticket.deletedAt || ticket.mergedIntoId || ticket.spam) return;
    if (!ticket.contactId) return;
    const to = await visitorEmailOf(deps.db, ticket.workspaceId, ticket.contactId);
    if (!to) return;
    const fallbackMailboxId = (await widgetSettingsOf(deps.db, ticket.workspaceId)).replyMailboxId;
    const marks = await marksOf(deps.db, ticket.id);
    // ISO times compare as strings: the later of the two marks.
    const since = [marks?.seenThrough ?? "", marks?.mailedThrough ?? ""].sort().at(-1)!;
    const unseen = (await publicMessagesOf(deps.db, ticket.id, attachmentLinks(deps))).filter(
      (m) => isAgentReply(m) && m.created_at > since,
    );
    if (!unseen.some((m) => m.id === payload.message_id)) return;
    if (!(await chatEmailConfirmed(deps.db, ticket.workspaceId, ticket.contactId, to))) {
      // The visitor may have typed anyone's address: its owner is asked first, and the replies wait
      // (unseen ones go out when the address is confirmed: widget.email-confirm.page.ts).
      const asked = await askToConfirmChatEmail(deps, {
        ticket,
        contactId: ticket.contactId,
        email: to,
        fallbackMailboxId,
      });
      run.logger.info({ ticket_id: ticket.id, asked }, "chat replies wait for the visitor to confirm their email");
      return;
    }
    const replies = unseen.slice(-MAX_REPLIES_PER_MAIL);
    const newest = replies.at(-1)!;
    const { html, text } = renderMail(
      replies,
      (await widgetWorkspaceOf(deps.db, ticket.workspaceId))?.name ?? "Support",
      await localeForContact(deps, ticket.workspaceId, ticket.contactId),
    );
    const sent = await sendCustomerMail(deps, {
      ticket,
      fallbackMailboxId,
      to,
      subject: `Re: ${ticket.subject.replace(/[\r\n]+/g, " ")} [#${ticket.number}]`,
      html,
      text,
      key: `chat-${newest.id}`,
    });
    if (!sent) {
      run.logger.info({ ticket_id: ticket.id }, "chat replies not mailed: the workspace has no mailbox to send from");
      return;
    }
    await transact(
      deps.db,
      async (tx) =>
        await setMark(tx, {
          workspaceId: ticket.workspaceId,
          ticketId: ticket.id,
          name: "mailedThrough",
          at: newest.created_at,
          now: deps.clock.now(),
        }),
    );
    run.logger.info({ ticket_id: ticket.id, replies: replies.length, via: sent.via }, "unseen chat replies mailed");
  },
});

/**
 * An agent's reply on a chat ticket whose visitor left an email: its mail job, due after the
 * delay (the job sends nothing when the visitor saw the reply by then).
 */
export const chatReplyMailOnMessage = defineConsumer({
  name: "widget.chat-reply-mail",
  events: [messageCreated],
  async handle(tx, event, { deps }: ConsumerContext<Deps>) {
    const { ticket_id, message } = event.data;
    if (!isAgentReply(message)) return;
    const contactId = await chatContactOfTicket(tx, event.workspace_id, ticket_id);
    if (!contactId || !(await visitorEmailOf(tx, event.workspace_id, contactId))) return;
    await enqueue(
      tx,
      chatReplyMailJob,
      { workspace_id: event.workspace_id, ticket_id, message_id: message.id },
      {
        workspaceId: event.workspace_id,
        uniqueKey: `chat-mail:${message.id}`,
        // From the reply's own time: a consumer running behind must not add its lag to the delay.
        runAt: new Date((Date.parse(message.created_at) || deps.clock.now().getTime()) + deps.config.chatMailDelayMs),
      },
    );
  },
});

/**
 * After the visitor confirmed their email: queue the mail of the ticket's unseen replies now (the job
 * takes every unseen reply; keyed on the newest, so a second confirmation queues nothing new).
 */
export async function mailUnseenChatRepliesNow(deps: Deps, workspaceId: string, ticketId: string): Promise<void> {
  const newest = (await publicMessagesOf(deps.db, ticketId, attachmentLinks(deps)))
    .filter((m) => isAgentReply(m))
    .at(-1);
  if (!newest) return;
  await transact(
    deps.db,
    async (tx) =>
      await enqueue(
        tx,
        chatReplyMailJob,
        { workspace_id: workspaceId, ticket_id: ticketId, message_id: newest.id },
        { workspaceId, uniqueKey: `chat-mail-confirmed:${newest.id}` },
      ),
  );
}
