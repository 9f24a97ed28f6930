import { discardAttachments, storeAttachmentAsync } from "../attachments/attachments.public";
import { systemContext, type RequestContext } from "../auth/context";
import {
  findOrCreateContactByEmail,
  isContactEmail,
  presentContactRef,
  setContactLocaleIfUnset,
} from "../contacts/contacts.public";
import type { Db, Queryable, Tx } from "../db/database";
import { untilDurable, transact } from "../db/tx";
import type { Deps } from "../deps";
import { enqueue } from "../jobs/enqueue";
import { sha256Hex } from "../lib/crypto";
import { newId } from "../lib/ids";
import { htmlToText } from "../lib/sanitize";
import { languageOfMail } from "./inbound.language";
import { parseEmail, type ParsedEmail } from "../mail/mail.parse";
import { trimQuoted } from "../mail/mail.quote";
import {
  isOwnMailboxAddress,
  isTrustedSender,
  mailboxByAddress,
  mailboxStatusByAddress,
  type MailboxRow,
} from "../mailboxes/mailboxes.public";
import {
  autoReplyJob,
  conversationKeyOf,
  rememberConversation,
  rememberMessageId,
  sentDeskMessageIds,
  ticketsOfMessageIds,
} from "../outbound/outbound.public";
import {
  addMessage,
  createTicketWithMessage,
  isSpamTicket,
  messageOfWorkspace,
  setDeliveryStatus,
  ticketByNumberRow,
  undeletedTicketIds,
  updateTicket,
} from "../tickets/tickets.public";
import {
  bounceReport,
  dmarcVerdict,
  isAutomated,
  plusAddressTicketNumber,
  stripPlus,
  subjectTicketNumber,
} from "./inbound.classify";
import { threadByOutlookHeaders, threadIndexOf } from "./inbound.outlook";
import { inboundStatements } from "./inbound.statements";
import { textToSanitizedHtml } from "./inbound.text";

export type IngestOutcome =
  | { outcome: "created" | "appended"; ticketId: string; messageId: string }
  | { outcome: "duplicate" }
  | { outcome: "bounce"; messageIds: string[] }
  | { outcome: "refused"; reason: string };

export type IngestSource = { raw: Uint8Array; mailbox: MailboxRow; recipient?: string | null; receivedAt?: number };

/** The mailbox an address reaches: its own address, its forwarding address, or a plus-address of either. */
export async function mailboxForRecipient(db: Db, address: string): Promise<MailboxRow | undefined> {
  const wanted = address.trim().toLowerCase();
  return await mailboxByAddress(db, wanted, stripPlus(wanted));
}

/** Asked at every RCPT TO: reads the status alone, the same first row mailboxForRecipient would find. */
export const isKnownRecipient = async (db: Db, address: string): Promise<boolean> => {
  const wanted = address.trim().toLowerCase();
  const status = await mailboxStatusByAddress(db, wanted, stripPlus(wanted));
  return status !== undefined && status !== "disabled";
};

const dedupeKeyOf = (email: ParsedEmail, raw: Uint8Array) =>
  email.messageId ? `mid:${email.messageId}` : `sha256:${sha256Hex(raw)}`;

/** The outcome recorded for this mail before (`stored`, `bounce`, `refused:<reason>`), if any. */
const earlierOutcome = async (db: Db, mailboxId: string, key: string): Promise<string | undefined> =>
  await inboundStatements(db).receiptOutcome(mailboxId, key);

/** Claims the dedupe key in the ingest transaction; false when another ingest already holds it. */
async function claimReceipt(tx: Tx, mailbox: MailboxRow, key: string, outcome: string, now: Date): Promise<boolean> {
  return await inboundStatements(tx).claimReceipt({
    mailboxId: mailbox.id,
    key,
    workspaceId: mailbox.workspaceId,
    outcome,
    at: now.toISOString(),
  });
}

/** Removes a workspace's original messages from the store (its purge); answers how many went. */
export async function removeWorkspaceMail(deps: Pick<Deps, "blobs">, workspaceId: string): Promise<number> {
  let removed = 0;
  for await (const key of deps.blobs.list(`mail/${workspaceId}/`)) {
    await deps.blobs.delete(key);
    removed++;
  }
  return removed;
}

/**
 * Stores the raw original in the desk's store, by workspace and month (`mail/<workspace>/<yyyy-mm>/
 * <id>.eml`); answers its key, which is also its path relative to the data dir (`original_path`).
 */
async function storeOriginal(deps: Pick<Deps, "blobs">, workspaceId: string, raw: Uint8Array, now: Date) {
  const key = `mail/${workspaceId}/${now.toISOString().slice(0, 7)}/${newId()}.eml`;
  await deps.blobs.put(key, raw, { contentType: "message/rfc822" });
  return key;
}

type Thread = { ticketId: string } | null;

/** In-Reply-To / References against the ids we sent or saw, newest reference first. */
async function threadByHeaders(db: Queryable, workspaceId: string, email: ParsedEmail): Promise<Thread> {
  const ids = [...new Set([...email.inReplyTo, ...[...email.references].reverse()])].slice(0, 50);
  if (ids.length === 0) return null;
  const rows = await ticketsOfMessageIds(db, workspaceId, ids);
  if (rows.length === 0) return null;
  // Ids of deleted tickets do not thread.
  const live = await undeletedTicketIds(
    db,
    workspaceId,
    rows.map((r) => r.ticketId),
  );
  for (const id of ids) {
    const hit = rows.find((r) => r.messageId === id && live.has(r.ticketId));
    if (hit) return { ticketId: hit.ticketId };
  }
  return null;
}

/**
 * `[#123]` in the subject or `support+123@` in the recipient. The token is guessable, so it only
 * threads when the sender is the ticket's own contact (by any of its addresses: `senderContactId` is
 * the contact the sender's address found); anyone else opens a new ticket.
 */
async function threadByToken(
  db: Queryable,
  workspaceId: string,
  email: ParsedEmail,
  recipient: string | null,
  senderContactId: string,
): Promise<Thread> {
  const number = subjectTicketNumber(email.subject) ?? (recipient ? plusAddressTicketNumber(recipient) : null);
  if (number === null) return null;
  const row = await ticketByNumberRow(db, workspaceId, number);
  return row?.contactId && row.contactId === senderContactId ? { ticketId: row.id } : null;
}

/**
 * Inline images stay `cid:<content-id>` in the stored body: a stable marker, never a URL that needs
 * a credential or expires. The messages presenter swaps each for its attachment's signed URL at
 * display time, matching only this message's own attachments. Here references are only normalised
 * (RFC 2392 allows percent-encoding and angle brackets) so they match the stored content ids.
 */
export function normalizeCidReferences(html: string, contentIds: Set<string>): string {
  if (contentIds.size === 0 || !/cid:/i.test(html)) return html;
  return html.replace(
    /(\bsrc\s*=\s*)(["']?)cid:([^"'\s>]+)\2/gi,
    (whole, prefix: string, _quote: string, reference: string) => {
      let cid = reference;
      try {
        cid = decodeURIComponent(reference);
      } catch {
        // Not percent-encoded after all: keep it as written.
      }
      cid = cid.replace(/^<|>$/g, "").trim().toLowerCase();
      return contentIds.has(cid) ? `${prefix}"cid:${cid}"` : whole;
    },
  );
}

/**
 * The one ingest pipeline behind all three doors (SMTP receiver, POST /v1/inbound/email, IMAP).
 * Parse and store files first; then, in one transaction: dedupe, thread, contact, ticket or
 * message, Message-ID map, follow-up jobs. Never throws for bad mail: refusals are outcomes.
 * Settles once what it stored is committed, so the sender may be told it was accepted.
 */
export async function ingestEmail(deps: Deps, source: IngestSource): Promise<IngestOutcome> {
  const outcome = await ingestUncommitted(deps, source);
  await untilDurable(deps.db);
  return outcome;
}

/** A parsed message on its way into the store, with what was decided about it before the transaction. */
type Ingest = {
  mailbox: MailboxRow;
  key: string;
  ctx: RequestContext;
  email: ParsedEmail;
  recipient: string | null;
  sender: Sender;
  subject: string;
  body: ReturnType<typeof trimQuoted>;
  bodyHtml: string;
  bodyText: string;
  attachmentIds: string[];
  originalPath: string;
  /** The writer's language as the mail tells it (inbound.language.ts), for a contact with none yet. */
  language: string | null;
};

/** Who wrote: the From address, or the visitor a trusted form relays in Reply-To. */
type Sender = ReturnType<typeof senderOf>;

function senderOf(deps: Deps, mailbox: MailboxRow, email: ParsedEmail, from: NonNullable<ParsedEmail["from"]>) {
  const dmarc = dmarcVerdict(email, deps.config.trustedAuthServers);
  const viaForm = Boolean(
    email.replyTo &&
      dmarc === "pass" &&
      isTrustedSender(mailbox.trustedFormSenders, from.email) &&
      email.replyTo.email !== from.email,
  );
  const visitor = viaForm ? email.replyTo! : from;
  const replyTo = !viaForm && email.replyTo && email.replyTo.email !== from.email ? email.replyTo.email : "";
  return { from, dmarc, viaForm, visitor, replyTo, automated: isAutomated(email) };
}

/** The message's HTML and text as stored: a plain-text body becomes HTML already in its sanitized form (the sanitizer would not change it). */
function storedBodiesOf(body: ReturnType<typeof trimQuoted>, contentIds: Parameters<typeof normalizeCidReferences>[1]) {
  const text = body.text.trim();
  const bodyHtml =
    body.html !== null ? normalizeCidReferences(body.html, contentIds) : text ? textToSanitizedHtml(text) : "";
  const bodyText = body.html !== null && !text ? htmlToText(body.html) : text;
  return { bodyHtml, bodyText };
}

async function ingestUncommitted(deps: Deps, source: IngestSource): Promise<IngestOutcome> {
  const { mailbox, raw } = source;
  // A child logger costs a bindings serialisation per message: made when a line is first written.
  let child: Deps["logger"] | null = null;
  const log = () => (child ??= deps.logger.child({ subsystem: "inbound", mailbox_id: mailbox.id }));
  const started = performance.now();
  let email: ParsedEmail;
  try {
    email = await parseEmail(raw);
  } catch (error) {
    log().warn(
      { err: error instanceof Error ? error.message : String(error), bytes: raw.byteLength },
      "inbound: unparseable message refused",
    );
    return { outcome: "refused", reason: "unparseable" };
  }
  const key = dedupeKeyOf(email, raw);
  const earlier = await earlierOutcome(deps.db, mailbox.id, key);
  // A resent refused message is refused again (the sender hears the same answer); anything else is a duplicate.
  if (earlier?.startsWith("refused:")) return { outcome: "refused", reason: earlier.slice("refused:".length) };
  if (earlier) return { outcome: "duplicate" };
  const ctx = systemContext(mailbox.workspaceId, `inbound:${newId()}`);
  const refuse = async (reason: string): Promise<IngestOutcome> => {
    const claimed = await transact(
      deps.db,
      async (tx) => await claimReceipt(tx, mailbox, key, `refused:${reason}`, deps.clock.now()),
    );
    if (!claimed) return { outcome: "duplicate" };
    log().info({ reason, message_id: email.messageId, bytes: raw.byteLength }, "inbound: message refused");
    return { outcome: "refused", reason };
  };

  const bounce = bounceReport(email);
  if (bounce) return await recordBounce(deps, mailbox, key, bounce, log());

  if (!email.from) return await refuse("no_from_address");
  if (await isOwnMailboxAddress(deps.db, mailbox.workspaceId, email.from.email))
    return await refuse("sent_by_own_mailbox");
  const sender = senderOf(deps, mailbox, email, email.from);
  // An address no contact can have is refused here, before any file is stored for it.
  if (!isContactEmail(sender.visitor.email)) return await refuse("no_from_address");

  const body = trimQuoted(email.html, email.text);
  const originalStored = storeOriginal(deps, mailbox.workspaceId, raw, deps.clock.now());
  const { attachmentIds, contentIds } = await storeParts(deps, ctx, email, log);
  const { bodyHtml, bodyText } = storedBodiesOf(body, contentIds);
  const subject = (email.subject || "(no subject)").slice(0, 250);
  // A machine's mail (out-of-office, notifications) says nothing of the person's language.
  const language = sender.automated ? null : await languageOfMail(email, bodyText);
  const originalPath = await originalStored;
  const prepared = performance.now();
  const recipient = source.recipient ?? null;
  const ingest: Ingest = {
    mailbox,
    key,
    ctx,
    email,
    recipient,
    sender,
    subject,
    body,
    bodyHtml,
    bodyText,
    attachmentIds,
    originalPath,
    language,
  };

  let outcome: IngestOutcome;
  try {
    outcome = await storeIngested(deps, ingest);
  } catch (error) {
    // Nothing of a message that was not stored may stay behind: its files go with it.
    await discardAttachments(deps, attachmentIds);
    throw error;
  }
  if (outcome.outcome === "duplicate") {
    await discardAttachments(deps, attachmentIds);
    return outcome;
  }
  const stored = performance.now();
  if (deps.logger.isLevelEnabled("info"))
    log().info(
      {
        outcome: outcome.outcome,
        attachments: attachmentIds.length,
        has_quoted: body.hasQuoted,
        auth_failed: sender.dmarc === "fail",
        automated: sender.automated,
        // Where the time goes: parsing and files before the transaction, then the transaction itself.
        prepare_ms: Math.round((prepared - started) * 10) / 10,
        store_ms: Math.round((stored - prepared) * 10) / 10,
      },
      "inbound: message stored",
    );
  return outcome;
}

/** The message's files, one after another (rows keep the parts' order), each written off the event loop. */
async function storeParts(deps: Deps, ctx: RequestContext, email: ParsedEmail, log: () => Deps["logger"]) {
  const contentIds = new Set<string>();
  const attachmentIds: string[] = [];
  for (const part of email.attachments) {
    if (part.content.byteLength === 0) continue;
    try {
      const row = await storeAttachmentAsync(
        ctx,
        {
          filename: part.filename,
          content_type: part.contentType,
          bytes: part.content,
          inline: part.inline,
          content_id: part.contentId,
        },
        deps,
      );
      attachmentIds.push(row.id);
      if (part.contentId) contentIds.add(part.contentId.replace(/^<|>$/g, "").trim().toLowerCase());
    } catch (error) {
      log().warn(
        { err: error instanceof Error ? error.message : String(error), bytes: part.content.byteLength },
        "inbound: attachment skipped",
      );
    }
  }
  return { attachmentIds, contentIds };
}

/** The message as tickets store it: the thread's reply, or the first message of a new ticket. */
function messageInputOf(ingest: Ingest, contactId: string) {
  const { email, sender, body } = ingest;
  const emailFields = {
    from_email: sender.visitor.email,
    from_name: sender.visitor.name,
    to: email.to.map((a) => a.email),
    cc: email.cc.map((a) => a.email),
    bcc: [],
    subject: ingest.subject,
    reply_to: sender.replyTo,
    auth_failed: sender.dmarc === "fail",
    form_sender: sender.viaForm ? sender.from.email : "",
    has_quoted: body.hasQuoted,
    email_message_id: email.messageId,
    original_path: ingest.originalPath,
  };
  return {
    kind: "reply" as const,
    body_html: ingest.bodyHtml,
    body_html_sanitized: body.html === null,
    body_text: ingest.bodyText,
    attachment_ids: ingest.attachmentIds,
    direction: "inbound" as const,
    author: { type: "contact" as const, contactId },
    email: emailFields,
  };
}

/** In one transaction: dedupe, thread, contact, ticket or message, Message-ID map, follow-up jobs. */
async function storeIngested(deps: Deps, ingest: Ingest): Promise<IngestOutcome> {
  const { mailbox, key, ctx, email, sender } = ingest;
  const { visitor, dmarc } = sender;
  return await transact(deps.db, async (tx): Promise<IngestOutcome> => {
    if (!(await claimReceipt(tx, mailbox, key, "stored", deps.clock.now()))) return { outcome: "duplicate" };
    const contact = await findOrCreateContactByEmail(
      tx,
      ctx,
      { email: visitor.email, name: visitor.name || null },
      deps.ports,
    );
    await setContactLocaleIfUnset(
      tx,
      mailbox.workspaceId,
      contact.id,
      ingest.language,
      deps.clock.now().toISOString(),
      deps.ports,
    );
    const thread =
      (await threadByHeaders(tx, mailbox.workspaceId, email)) ??
      (await threadByToken(tx, mailbox.workspaceId, email, ingest.recipient, contact.id)) ??
      (await threadByOutlookHeaders(tx, mailbox.workspaceId, email, contact.id, deps.clock.now()));
    const messageInput = messageInputOf(ingest, contact.id);
    let ticketId: string;
    let messageId: string;
    let created = false;
    if (thread) {
      const message = await addMessage(ctx, thread.ticketId, messageInput, deps);
      ticketId = message.ticketId;
      messageId = message.id;
    } else {
      const { ticket, message } = await createTicketWithMessage(
        ctx,
        {
          subject: ingest.subject,
          contact_id: contact.id,
          channel: "email",
          mailbox_id: mailbox.id,
          team_id: mailbox.teamId ?? undefined,
          ...messageInput,
        },
        deps,
        { contact: presentContactRef(contact) },
      );
      ticketId = ticket.id;
      messageId = message!.id;
      created = true;
    }
    if (contact.blocked && !(await isSpamTicket(tx, ticketId))) await updateTicket(ctx, ticketId, { spam: true }, deps);
    await inboundStatements(tx).recordReceiptTarget(mailbox.id, key, ticketId, messageId);
    await rememberThreading(tx, deps, mailbox, email, ticketId, messageId);
    if (created && mailbox.autoReplyEnabled && !sender.automated && !contact.blocked && dmarc !== "fail") {
      await enqueue(
        tx,
        autoReplyJob,
        { ticket_id: ticketId, mailbox_id: mailbox.id },
        { uniqueKey: `auto-reply:${ticketId}`, workspaceId: mailbox.workspaceId },
      );
    }
    return { outcome: created ? "created" : "appended", ticketId, messageId };
  });
}

/** What threads the next mail of this conversation here: its Message-ID and its Outlook conversation. */
async function rememberThreading(
  tx: Tx,
  deps: Deps,
  mailbox: MailboxRow,
  email: ParsedEmail,
  ticketId: string,
  messageId: string,
): Promise<void> {
  if (email.messageId)
    await rememberMessageId(tx, {
      workspaceId: mailbox.workspaceId,
      messageId: email.messageId,
      ticketId,
      deskMessageId: messageId,
      direction: "inbound",
      createdAt: deps.clock.now().toISOString(),
    });
  const conversationKey = conversationKeyOf(threadIndexOf(email));
  if (conversationKey)
    await rememberConversation(tx, {
      workspaceId: mailbox.workspaceId,
      key: conversationKey,
      ticketId,
      createdAt: deps.clock.now().toISOString(),
    });
}

async function recordBounce(
  deps: Deps,
  mailbox: MailboxRow,
  key: string,
  bounce: ReturnType<typeof bounceReport> & object,
  log: Deps["logger"],
): Promise<IngestOutcome> {
  const ctx = systemContext(mailbox.workspaceId);
  const marked = await transact(deps.db, async (tx) => {
    if (!(await claimReceipt(tx, mailbox, key, "bounce", deps.clock.now()))) return null;
    if (!bounce.permanent || bounce.originalMessageIds.length === 0) return [];
    const ids: string[] = [];
    for (const id of await sentDeskMessageIds(tx, mailbox.workspaceId, bounce.originalMessageIds)) {
      const status = (await messageOfWorkspace(tx, mailbox.workspaceId, id))?.deliveryStatus;
      if (status !== "pending" && status !== "sent") continue;
      await setDeliveryStatus(ctx, id, "bounced", bounce.diagnostic, deps);
      ids.push(id);
    }
    return ids;
  });
  if (marked === null) return { outcome: "duplicate" };
  log.info({ bounced: marked.length, permanent: bounce.permanent }, "inbound: delivery report processed");
  return { outcome: "bounce", messageIds: marked };
}
