import { readFileSync } from "node:fs";
import { join } from "node:path";
import { z } from "zod";
import { attachmentFilePath, attachmentsOfMessages } from "../attachments/attachments.public";
import { systemContext } from "../auth/context";
import { contactRefsOf } from "../contacts/contacts.public";
import type { Deps } from "../deps";
import { onEventInTransaction } from "../events/bus";
import { defineJob, type JobContext } from "../jobs/define";
import { enqueue } from "../jobs/enqueue";
import type { Logger } from "../lib/logger";
import { htmlToText } from "../lib/sanitize";
import { SendFailure, sendViaSmtp, writeToOutbox, type OutgoingMail } from "../mail/mail.send";
import {
  findMailbox,
  firstMailboxOf,
  mailboxById,
  smtpSettingsOf,
  type MailboxRow,
} from "../mailboxes/mailboxes.public";
import { addMessage, messageOfWorkspace, setDeliveryStatus, ticketOfWorkspace } from "../tickets/tickets.public";
import { outboundMessageId, rememberMessageId, threadHeaders } from "./outbound.threads";

const SEND_ATTEMPTS = 6;

/**
 * Outbound replies on email tickets are stored `pending`; in the same transaction this hook
 * records our Message-ID for threading and enqueues the durable send job.
 */
export function registerOutboundMailHook(deps: Pick<Deps, "db" | "clock" | "config">): void {
  onEventInTransaction(deps.db, (tx, event, origin) => {
    if (event.type !== "message.created") return;
    const message = (
      event.data as {
        message?: { id?: string; delivery_status?: string; direction?: string; kind?: string; ticket_id?: string };
      }
    ).message;
    if (
      !message?.id ||
      message.delivery_status !== "pending" ||
      message.direction !== "outbound" ||
      message.kind !== "reply"
    )
      return;
    const ticketId = (event.data as { ticket_id?: string }).ticket_id ?? message.ticket_id ?? "";
    rememberMessageId(tx, {
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
    enqueue(tx, sendReplyJob, payload, {
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
  const path = await writeToOutbox(join(deps.config.dataDir, "outbox"), mail, deps.clock.now());
  log.warn(
    { mailbox_id: mailbox.id, path },
    "mail: no relay configured (DESK_SMTP_URL), reply written to the outbox and NOT delivered",
  );
  return "outbox";
}

const withToken = (subject: string, number: number) =>
  subject.includes(`[#${number}]`) ? subject : `${subject} [#${number}]`;

export const sendReplyJob = defineJob({
  name: "mail.send_reply",
  schema: z.object({ message_id: z.string(), workspace_id: z.string(), auto_reply: z.boolean().optional() }),
  retry: { baseDelayMs: 30_000, maxDelayMs: 30 * 60_000 },
  concurrency: 4,
  async handler(payload, run: JobContext<Deps>) {
    const { deps } = run;
    const ctx = systemContext(payload.workspace_id);
    const message = messageOfWorkspace(deps.db, payload.workspace_id, payload.message_id);
    if (message?.deliveryStatus !== "pending") return;
    const ticket = ticketOfWorkspace(deps.db, payload.workspace_id, message.ticketId);
    const mailbox = ticket?.mailboxId
      ? findMailbox(deps.db, payload.workspace_id, ticket.mailboxId)
      : firstMailboxOf(deps.db, payload.workspace_id);
    if (!ticket || !mailbox) {
      setDeliveryStatus(ctx, message.id, "failed", "The ticket has no mailbox to send from.", deps);
      return;
    }
    const to = message.to.length ? message.to : [];
    if (to.length === 0) {
      setDeliveryStatus(ctx, message.id, "failed", "The ticket's contact has no email address.", deps);
      return;
    }
    const files = attachmentsOfMessages(deps.db, [message.id]).get(message.id) ?? [];
    const thread = threadHeaders(deps.db, payload.workspace_id, ticket.id, message.id);
    const autoReply = payload.auto_reply === true;
    const html =
      mailbox.signatureHtml && !autoReply
        ? `${message.bodyHtml}<br><div class="signature">${mailbox.signatureHtml}</div>`
        : message.bodyHtml;
    const subject = autoReply
      ? message.subject
      : thread.inReplyTo && !/^re:/i.test(ticket.subject)
        ? `Re: ${ticket.subject}`
        : ticket.subject;
    const mail: OutgoingMail = {
      from: { name: mailbox.displayName || mailbox.name, address: mailbox.email },
      to,
      cc: message.cc,
      subject: withToken(subject, ticket.number),
      html,
      text: htmlToText(html),
      messageId: `<${outboundMessageId(message.id, deps.config.inboundDomain)}>`,
      inReplyTo: thread.inReplyTo,
      references: thread.references,
      attachments: files.map((f) => ({
        filename: f.filename,
        contentType: f.contentType,
        content: readFileSync(attachmentFilePath(deps, f)),
        cid: f.contentId,
      })),
      // RFC 3834: marks our auto-reply so other responders stay quiet.
      headers: autoReply
        ? { "Auto-Submitted": "auto-replied", "X-Auto-Response-Suppress": "All", Precedence: "auto_reply" }
        : undefined,
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
      setDeliveryStatus(ctx, message.id, "failed", failure.message, deps);
      return;
    }
    setDeliveryStatus(ctx, message.id, "sent", null, deps, via);
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
  handler(payload, { deps }: JobContext<Deps>) {
    const mailbox = mailboxById(deps.db, payload.mailbox_id);
    const ticket = mailbox && ticketOfWorkspace(deps.db, mailbox.workspaceId, payload.ticket_id);
    if (!ticket || ticket.deletedAt || !mailbox || !mailbox.autoReplyEnabled || !ticket.contactId) return;
    const contact = contactRefsOf(deps.db, [ticket.contactId]).get(ticket.contactId);
    if (!contact?.email) return;
    const html = mailbox.autoReplyHtml || "<p>We received your message and will get back to you soon.</p>";
    const subject =
      mailbox.autoReplySubject || (/^re:/i.test(ticket.subject) ? ticket.subject : `Re: ${ticket.subject}`);
    const ctx = systemContext(ticket.workspaceId, `auto-reply:${ticket.id}`);
    addMessage(
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
