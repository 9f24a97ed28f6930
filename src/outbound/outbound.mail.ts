import { z } from "zod";
import { attachmentBytes, attachmentsOfMessages } from "../attachments/attachments.public";
import { systemContext } from "../auth/context";
import { contactRefsOf } from "../contacts/contacts.public";
import { untilDurable, transact } from "../db/tx";
import type { Deps } from "../deps";
import { onEvent } from "../events/bus";
import { defineJob, type JobContext } from "../jobs/define";
import { enqueue } from "../jobs/enqueue";
import type { Logger } from "../lib/logger";
import { SendFailure, sendViaSmtp, writeToOutbox, type OutgoingMail } from "../mail/mail.send";
import {
  findMailbox,
  firstMailboxOf,
  mailboxById,
  smtpSettingsOf,
  type MailboxRow,
} from "../mailboxes/mailboxes.public";
import {
  addMessage,
  messageCreated,
  type MessageRow,
  messageOfWorkspace,
  repliesBefore,
  setDeliveryStatus,
  ticketOfWorkspace,
} from "../tickets/tickets.public";
import { FORWARD_MAX_MESSAGES, forwardBodies, replyBodies, senderLabel } from "./outbound.compose";
import { outlookThreadHeaders } from "./outbound.conversations";
import { outboundMessageId, rememberMessageId, threadHeaders } from "./outbound.threads";
import { withSignature } from "./outbound.signature";
import { withPortalLink } from "./outbound.portal-link";
import { localeForContact } from "./outbound.locale";
import { escapeHtml } from "../lib/sanitize";
import { t } from "../i18n/i18n";

const SEND_ATTEMPTS = 6;

/**
 * Outbound replies on email tickets are stored `pending`; in the same transaction this hook
 * records our Message-ID for threading and enqueues the durable send job.
 */
export function registerOutboundMailHook(deps: Pick<Deps, "db" | "clock" | "config">): void {
  onEvent(deps.db, [messageCreated], async (tx, event, origin) => {
    const { message } = event.data;
    if (
      message.delivery_status !== "pending" ||
      message.direction !== "outbound" ||
      (message.kind !== "reply" && message.forward !== true)
    )
      return;
    const ticketId = event.data.ticket_id;
    await rememberMessageId(tx, {
      workspaceId: event.workspace_id,
      messageId: outboundMessageId(message.id, deps.config.inboundDomain),
      ticketId,
      deskMessageId: message.id,
      direction: "outbound",
      createdAt: deps.clock.now().toISOString(),
    });
    // The auto-reply says so when it adds its message (the ticket API passes it on as the event's origin).
    const payload = {
      message_id: message.id,
      workspace_id: event.workspace_id,
      ...(origin === "auto_reply" ? { auto_reply: true } : {}),
    };
    await enqueue(tx, sendReplyJob, payload, {
      workspaceId: event.workspace_id,
      maxAttempts: SEND_ATTEMPTS,
      uniqueKey: `send:${message.id}`,
    });
  });
}

/**
 * Sends through the mailbox's SMTP, its provider or the DESK_SMTP_URL relay; a system mailbox with
 * no relay can only write the mail to the outbox folder, and says so (`outbox`): it reached no one.
 */
async function deliver(deps: Deps, mailbox: MailboxRow, mail: OutgoingMail, log: Logger): Promise<"smtp" | "outbox"> {
  const settings = await smtpSettingsOf(deps, mailbox).catch((error: unknown) => {
    throw new SendFailure(error instanceof Error ? error.message : String(error), true);
  });
  if (settings) {
    await sendViaSmtp(settings, mail);
    return "smtp";
  }
  const path = await writeToOutbox(deps.blobs, mail, deps.clock.now());
  log.warn(
    { mailbox_id: mailbox.id, path },
    "mail: no relay configured (DESK_SMTP_URL), reply written to the outbox and NOT delivered",
  );
  return "outbox";
}

/** How many earlier replies are searched for the customer's last message (the one a reply quotes). */
const QUOTE_LOOKBACK = 20;

/**
 * The customer's message a reply answers: the last one the ticket's contact sent among the replies
 * before it. Mail from anyone else on the ticket (a forward's recipient answering) is never quoted.
 */
const customerMessageIn = (earlier: MessageRow[], contactId: string | null): MessageRow | undefined =>
  contactId
    ? earlier.slice(-QUOTE_LOOKBACK).findLast((m) => m.direction === "inbound" && m.authorContactId === contactId)
    : undefined;

/** How many earlier replies are read to tell the customer's thread from a forward's (and to quote from). */
const THREAD_LOOKBACK = 200;

/**
 * Which Desk messages belong to the customer's thread: our replies and the contact's own mail.
 * Forwards are notes (never replies) and their recipients' answers come from other contacts.
 */
function customerThread(earlier: MessageRow[], contactId: string | null): (deskMessageId: string) => boolean {
  const ids = new Set(
    earlier.filter((m) => m.direction === "outbound" || m.authorContactId === contactId).map((m) => m.id),
  );
  return (id) => ids.has(id);
}

const withToken = (subject: string, number: number) =>
  subject.includes(`[#${number}]`) ? subject : `${subject} [#${number}]`;

export const sendReplyJob = defineJob({
  name: "mail.send_reply",
  lane: "customer",
  schema: z.object({ message_id: z.string(), workspace_id: z.string(), auto_reply: z.boolean().optional() }),
  retry: { baseDelayMs: 30_000, maxDelayMs: 30 * 60_000 },
  concurrency: 4,
  async handler(payload, run: JobContext<Deps>) {
    const { deps } = run;
    const ctx = systemContext(payload.workspace_id);
    const message = await messageOfWorkspace(deps.db, payload.workspace_id, payload.message_id);
    if (message?.deliveryStatus !== "pending") return;
    const ticket = await ticketOfWorkspace(deps.db, payload.workspace_id, message.ticketId);
    const mailbox = ticket?.mailboxId
      ? await findMailbox(deps.db, payload.workspace_id, ticket.mailboxId)
      : await firstMailboxOf(deps.db, payload.workspace_id);
    if (!ticket || !mailbox) {
      await setDeliveryStatus(ctx, message.id, "failed", "The ticket has no mailbox to send from.", deps);
      return;
    }
    const to = message.to.length ? message.to : [];
    if (to.length === 0) {
      const reason = message.forward ? "The forward has no recipient." : "The ticket's contact has no email address.";
      await setDeliveryStatus(ctx, message.id, "failed", reason, deps);
      return;
    }
    const files = (await attachmentsOfMessages(deps.db, [message.id])).get(message.id) ?? [];
    // One read of the replies before this one serves the thread headers and the quote.
    const earlier = message.forward ? [] : await repliesBefore(deps.db, payload.workspace_id, message, THREAD_LOOKBACK);
    // A forward starts a conversation of its own with a third party: the customer's thread ids stay out of it.
    const thread = message.forward
      ? { inReplyTo: null, references: [] }
      : await threadHeaders(
          deps.db,
          payload.workspace_id,
          ticket.id,
          message.id,
          customerThread(earlier, ticket.contactId),
        );
    const autoReply = payload.auto_reply === true;
    const signed = withSignature(message.bodyHtml, autoReply ? "" : mailbox.signatureHtml);
    const from = { name: mailbox.displayName || mailbox.name, address: mailbox.email };
    const contactLocale = await localeForContact(deps, payload.workspace_id, ticket.contactId);
    const bodies = message.forward
      ? forwardBodies(
          signed,
          ticket.subject,
          await repliesBefore(deps.db, payload.workspace_id, message, FORWARD_MAX_MESSAGES),
          (m) =>
            m.direction === "outbound" ? senderLabel(from.name, from.address) : senderLabel(m.fromName, m.fromEmail),
        )
      : replyBodies(
          withPortalLink(signed, deps.config.baseUrl, payload.workspace_id, ticket.number, contactLocale),
          autoReply ? undefined : customerMessageIn(earlier, ticket.contactId),
          contactLocale,
        );
    const subject = message.forward
      ? message.subject
      : autoReply
        ? message.subject
        : thread.inReplyTo && !/^re:/i.test(ticket.subject)
          ? `Re: ${ticket.subject}`
          : ticket.subject;
    // Outlook threads on Thread-Index: its key is recorded (and durable) before the mail leaves.
    const outlook = await transact(deps.db, async (tx) => await outlookThreadHeaders(tx, ticket, deps.clock.now()));
    await untilDurable(deps.db);
    const contents = await Promise.all(files.map((f) => attachmentBytes(deps, f)));
    const mail: OutgoingMail = {
      from,
      to,
      cc: message.cc,
      bcc: message.bcc,
      subject: withToken(subject, ticket.number),
      html: bodies.html,
      text: bodies.text,
      messageId: `<${outboundMessageId(message.id, deps.config.inboundDomain)}>`,
      inReplyTo: thread.inReplyTo,
      references: thread.references,
      attachments: files.map((f, i) => ({
        filename: f.filename,
        contentType: f.contentType,
        content: contents[i]!,
        cid: f.contentId,
      })),
      headers: {
        ...outlook,
        // RFC 3834: marks our auto-reply so other responders stay quiet.
        ...(autoReply
          ? { "Auto-Submitted": "auto-replied", "X-Auto-Response-Suppress": "All", Precedence: "auto_reply" }
          : {}),
      },
    };
    let via: "smtp" | "outbox";
    try {
      via = await deliver(deps, mailbox, mail, run.logger);
    } catch (error) {
      const failure = error instanceof SendFailure ? error : new SendFailure(String(error), true);
      if (failure.temporary && run.attempt < SEND_ATTEMPTS) {
        run.logger.info({ message_id: message.id, err: failure.message }, "mail: temporary send failure, will retry");
        throw failure;
      }
      await setDeliveryStatus(ctx, message.id, "failed", failure.message, deps);
      return;
    }
    await setDeliveryStatus(ctx, message.id, "sent", null, deps, via);
  },
});

/**
 * Our auto-reply: once per new ticket (unique key). It is stored on the ticket as an outbound reply
 * by the system, so agents see what the customer was told, and sent by the ordinary send job
 * (delivery status, retries, threading) marked Auto-Submitted.
 */
export const autoReplyJob = defineJob({
  name: "inbound.auto_reply",
  schema: z.object({ ticket_id: z.string(), mailbox_id: z.string() }),
  retry: { maxAttempts: 5, baseDelayMs: 30_000 },
  async handler(payload, { deps }: JobContext<Deps>) {
    const mailbox = await mailboxById(deps.db, payload.mailbox_id);
    const ticket = mailbox && (await ticketOfWorkspace(deps.db, mailbox.workspaceId, payload.ticket_id));
    if (!ticket || ticket.deletedAt || !mailbox || !mailbox.autoReplyEnabled || !ticket.contactId) return;
    const contact = (await contactRefsOf(deps.db, [ticket.contactId])).get(ticket.contactId);
    if (!contact?.email) return;
    // The mailbox's own text is sent as its owner wrote it; Desk's default speaks the customer's language.
    const html =
      mailbox.autoReplyHtml ||
      `<p>${escapeHtml(t(await localeForContact(deps, ticket.workspaceId, ticket.contactId), "mail.auto_reply"))}</p>`;
    const subject =
      mailbox.autoReplySubject || (/^re:/i.test(ticket.subject) ? ticket.subject : `Re: ${ticket.subject}`);
    const ctx = systemContext(ticket.workspaceId, `auto-reply:${ticket.id}`);
    await addMessage(
      ctx,
      ticket.id,
      {
        kind: "reply",
        body_html: html,
        direction: "outbound",
        author: { type: "system" },
        email: { subject, from_email: mailbox.email, from_name: mailbox.displayName || mailbox.name },
      },
      deps,
      { origin: "auto_reply" },
    );
  },
});
