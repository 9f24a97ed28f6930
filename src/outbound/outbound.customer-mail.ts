import type { Queryable } from "../db/database";
import { untilDurable, transact } from "../db/tx";
import type { Deps } from "../deps";
import { PermanentFailure } from "../jobs/define";
import { SendFailure, sendViaSmtp, writeToOutbox, type OutgoingMail } from "../mail/mail.send";
import { findMailbox, firstMailboxOf, smtpSettingsOf, type MailboxRow } from "../mailboxes/mailboxes.public";
import { outlookThreadHeaders } from "./outbound.conversations";
import { rememberMessageId, threadHeaders } from "./outbound.threads";

/**
 * Mail to a ticket's customer that is not a message on the ticket (the rating request, the chat
 * replies a visitor missed): sent from a mailbox of the workspace, never from `no-reply@`, so the
 * customer's answer reaches a mailbox Desk reads and, threaded on the ticket's conversation, lands
 * on that ticket.
 */
export type CustomerMail = {
  ticket: { id: string; workspaceId: string; subject: string; createdAt: string; mailboxId: string | null };
  /** The mailbox to send from when the ticket has none (a chat's configured sender); else the workspace's first. */
  fallbackMailboxId?: string | null;
  to: string;
  subject: string;
  html: string;
  text: string;
  /** Unique per mail and stable across retries: the Message-ID's local part. */
  key: string;
  /**
   * A mail about the ticket that is not part of its conversation (a confirmation of the customer's
   * address): no threading headers, nothing of the ticket (not even its subject) in them, and an
   * answer to it does not land on the ticket.
   */
  standalone?: boolean;
  headers?: Record<string, string>;
};

/** The mailbox customer mail of a ticket goes out from: its own, else the given one, else the workspace's first. */
export async function customerMailboxOf(
  db: Queryable,
  ticket: Pick<CustomerMail["ticket"], "workspaceId" | "mailboxId">,
  fallbackMailboxId?: string | null,
): Promise<MailboxRow | undefined> {
  const usable = (row: MailboxRow | undefined) => (row && row.status !== "disabled" ? row : undefined);
  return (
    usable(ticket.mailboxId ? await findMailbox(db, ticket.workspaceId, ticket.mailboxId) : undefined) ??
    usable(fallbackMailboxId ? await findMailbox(db, ticket.workspaceId, fallbackMailboxId) : undefined) ??
    usable(await firstMailboxOf(db, ticket.workspaceId))
  );
}

/**
 * Sends customer mail from the ticket's mailbox with the ticket's threading headers and Reply-To the
 * mailbox, recording its Message-ID for the ticket first (a retry records nothing new). Answers null
 * when the workspace has no usable mailbox (the caller decides what else to do), else how it went
 * (`outbox`: no relay, written to the outbox folder only). A temporary failure throws for the job to
 * retry; a refusal the server will repeat is a PermanentFailure.
 */
export async function sendCustomerMail(
  deps: Deps,
  input: CustomerMail,
): Promise<{ via: "smtp" | "outbox"; messageId: string; from: string } | null> {
  const mailbox = await customerMailboxOf(deps.db, input.ticket, input.fallbackMailboxId);
  if (!mailbox) return null;
  const messageId = `${input.key}@${deps.config.inboundDomain}`.toLowerCase();
  const now = deps.clock.now();
  const { thread, outlook } = await transact(deps.db, async (tx) => {
    if (input.standalone) return { thread: { inReplyTo: null, references: [] as string[] }, outlook: {} };
    const thread = await threadHeaders(tx, input.ticket.workspaceId, input.ticket.id, "");
    await rememberMessageId(tx, {
      workspaceId: input.ticket.workspaceId,
      messageId,
      ticketId: input.ticket.id,
      deskMessageId: null,
      direction: "outbound",
      createdAt: now.toISOString(),
    });
    return { thread, outlook: await outlookThreadHeaders(tx, input.ticket, now) };
  });
  // The Message-ID that threads the customer's answer is on disk before the mail can be answered.
  await untilDurable(deps.db);
  // Our own id was just recorded: it is no parent of itself.
  const references = thread.references.filter((id) => id !== `<${messageId}>`);
  const inReplyTo = thread.inReplyTo === `<${messageId}>` ? (references.at(-1) ?? null) : thread.inReplyTo;
  const mail: OutgoingMail = {
    from: { name: mailbox.displayName || mailbox.name, address: mailbox.email },
    replyTo: mailbox.email,
    to: [input.to],
    cc: [],
    subject: input.subject,
    html: input.html,
    text: input.text,
    messageId: `<${messageId}>`,
    inReplyTo,
    references,
    headers: { ...outlook, ...input.headers },
  };
  try {
    const settings = await smtpSettingsOf(deps, mailbox).catch((error: unknown) => {
      throw new SendFailure(error instanceof Error ? error.message : String(error), true);
    });
    if (settings) {
      await sendViaSmtp(settings, mail);
      return { via: "smtp", messageId, from: mailbox.email };
    }
  } catch (error) {
    if (error instanceof SendFailure && !error.temporary) throw new PermanentFailure(error.message);
    throw error;
  }
  await writeToOutbox(deps.blobs, mail, now);
  return { via: "outbox", messageId, from: mailbox.email };
}
