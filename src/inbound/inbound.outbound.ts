import { readFileSync } from "node:fs";
import { join } from "node:path";
import { and, asc, eq } from "drizzle-orm";
import { z } from "zod";
import { attachmentFilePath } from "../attachments/attachments.service";
import { attachments } from "../attachments/attachments.table";
import { systemContext } from "../auth/context";
import { contacts } from "../contacts/contacts.table";
import type { Db } from "../db/database";
import type { Deps } from "../deps";
import { onEventInTransaction } from "../events/bus";
import { defineJob } from "../jobs/define";
import { enqueue } from "../jobs/enqueue";
import type { Logger } from "../lib/logger";
import { htmlToText } from "../lib/sanitize";
import { SendFailure, sendViaSmtp, writeToOutbox, type OutgoingMail } from "../mail/mail.send";
import { smtpSettingsOf } from "../mailboxes/mailboxes.connection";
import { mailboxes } from "../mailboxes/mailboxes.table";
import { addMessage, setDeliveryStatus } from "../messages/messages.service";
import { withTx } from "../db/tx";
import { messages } from "../messages/messages.table";
import { tickets } from "../tickets/tickets.table";
import { AUTO_REPLY_JOB } from "./inbound.service";
import { mailMessageIds } from "./inbound.table";

export const SEND_REPLY_JOB = "mail.send_reply";
const SEND_ATTEMPTS = 6;

/** Our Message-IDs live at the instance domain, so replies to them thread back to us. */
export const outboundMessageId = (deskMessageId: string, domain: string) => `${deskMessageId}@${domain}`.toLowerCase();

/**
 * Set only while the auto-reply job writes its message (synchronously, inside one transaction), so
 * the hook below marks that send as an auto-reply. Nothing else can run in between.
 */
let writingAutoReply = false;

/**
 * Outbound replies on email tickets are stored `pending`; in the same transaction this hook
 * records our Message-ID for threading and enqueues the durable send job.
 */
export function registerOutboundMailHook(deps: Pick<Deps, "db" | "clock" | "config">): void {
  onEventInTransaction(deps.db, (tx, event) => {
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
    tx.insert(mailMessageIds)
      .values({
        workspaceId: event.workspace_id,
        messageId: outboundMessageId(message.id, deps.config.inboundDomain),
        ticketId,
        deskMessageId: message.id,
        direction: "outbound",
        createdAt: deps.clock.now().toISOString(),
      })
      .onConflictDoNothing()
      .run();
    const payload = {
      message_id: message.id,
      workspace_id: event.workspace_id,
      ...(writingAutoReply ? { auto_reply: true } : {}),
    };
    enqueue(tx, SEND_REPLY_JOB, payload, {
      workspaceId: event.workspace_id,
      maxAttempts: SEND_ATTEMPTS,
      uniqueKey: `send:${message.id}`,
    });
  });
}

type Thread = { inReplyTo: string | null; references: string[] };

function threadHeaders(db: Db, workspaceId: string, ticketId: string, exceptId: string): Thread {
  const ids = db
    .select({
      messageId: mailMessageIds.messageId,
      deskMessageId: mailMessageIds.deskMessageId,
      direction: mailMessageIds.direction,
    })
    .from(mailMessageIds)
    .where(and(eq(mailMessageIds.workspaceId, workspaceId), eq(mailMessageIds.ticketId, ticketId)))
    .orderBy(asc(mailMessageIds.createdAt))
    .all()
    .filter((r) => r.deskMessageId !== exceptId);
  const lastInbound = [...ids].reverse().find((r) => r.direction === "inbound");
  return {
    inReplyTo: lastInbound ? `<${lastInbound.messageId}>` : ids.length ? `<${ids.at(-1)!.messageId}>` : null,
    references: ids.slice(-20).map((r) => `<${r.messageId}>`),
  };
}

/**
 * Sends through the mailbox's SMTP, its provider or the DESK_SMTP_URL relay; a system mailbox with
 * no relay can only write the mail to the outbox folder, and says so (`outbox`): it reached no one.
 */
async function deliver(
  deps: Deps,
  mailbox: typeof mailboxes.$inferSelect,
  mail: OutgoingMail,
  log: Logger,
): Promise<"smtp" | "outbox"> {
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

export function sendReplyJob(deps: Deps) {
  return defineJob({
    name: SEND_REPLY_JOB,
    schema: z.object({ message_id: z.string(), workspace_id: z.string(), auto_reply: z.boolean().optional() }),
    retry: { baseDelayMs: 30_000, maxDelayMs: 30 * 60_000 },
    concurrency: 4,
    async handler(payload, run) {
      const ctx = systemContext(payload.workspace_id);
      const message = deps.db
        .select()
        .from(messages)
        .where(and(eq(messages.id, payload.message_id), eq(messages.workspaceId, payload.workspace_id)))
        .get();
      if (message?.deliveryStatus !== "pending") return;
      const ticket = deps.db.select().from(tickets).where(eq(tickets.id, message.ticketId)).get();
      const mailbox = ticket?.mailboxId
        ? deps.db
            .select()
            .from(mailboxes)
            .where(and(eq(mailboxes.id, ticket.mailboxId), eq(mailboxes.workspaceId, payload.workspace_id)))
            .get()
        : deps.db
            .select()
            .from(mailboxes)
            .where(eq(mailboxes.workspaceId, payload.workspace_id))
            .orderBy(asc(mailboxes.createdAt))
            .get();
      if (!ticket || !mailbox) {
        setDeliveryStatus(ctx, message.id, "failed", "The ticket has no mailbox to send from.", deps);
        return;
      }
      const to = message.to.length ? message.to : [];
      if (to.length === 0) {
        setDeliveryStatus(ctx, message.id, "failed", "The ticket's contact has no email address.", deps);
        return;
      }
      const files = deps.db.select().from(attachments).where(eq(attachments.messageId, message.id)).all();
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
}

/**
 * Our auto-reply: once per new ticket (unique key). It is stored on the ticket as an outbound reply
 * by the system, so agents see what the customer was told, and sent by the ordinary send job
 * (delivery status, retries, threading) marked Auto-Submitted.
 */
export function autoReplyJob(deps: Deps) {
  return defineJob({
    name: AUTO_REPLY_JOB,
    schema: z.object({ ticket_id: z.string(), mailbox_id: z.string() }),
    retry: { maxAttempts: 5, baseDelayMs: 30_000 },
    handler(payload) {
      const ticket = deps.db.select().from(tickets).where(eq(tickets.id, payload.ticket_id)).get();
      const mailbox = deps.db.select().from(mailboxes).where(eq(mailboxes.id, payload.mailbox_id)).get();
      if (
        !ticket ||
        ticket.deletedAt ||
        !mailbox ||
        !mailbox.autoReplyEnabled ||
        !ticket.contactId ||
        ticket.workspaceId !== mailbox.workspaceId
      )
        return;
      const contact = deps.db
        .select({ email: contacts.email })
        .from(contacts)
        .where(eq(contacts.id, ticket.contactId))
        .get();
      if (!contact?.email) return;
      const html = mailbox.autoReplyHtml || "<p>We received your message and will get back to you soon.</p>";
      const subject =
        mailbox.autoReplySubject || (/^re:/i.test(ticket.subject) ? ticket.subject : `Re: ${ticket.subject}`);
      const ctx = systemContext(ticket.workspaceId, `auto-reply:${ticket.id}`);
      withTx(deps.db, () => {
        writingAutoReply = true;
        try {
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
          );
        } finally {
          writingAutoReply = false;
        }
      });
    },
  });
}
