import { first } from "../db/store";
import { isAbsolute, relative, resolve } from "node:path";
import { and, asc, eq } from "drizzle-orm";
import type { RequestContext } from "../auth/context";
import { attachmentLinks, attachToMessage } from "../attachments/attachments.public";
import type { Queryable, Tx } from "../db/database";
import { transact } from "../db/tx";
import type { Deps } from "../deps";
import { contactTopic } from "../events/envelope";
import { messageCreated, messageUpdated } from "./tickets.events";
import { appendEvent } from "../events/append";
import { BlobKeyError } from "../lib/blob-store";
import { notFound } from "../lib/errors";
import { newId } from "../lib/ids";
import { htmlToText, sanitizeHtmlBody, textToHtml } from "../lib/sanitize";
import { parseEmail } from "../mail/mail.parse";
import { findVisibleTicket, privateTeamOf, reloadTicket } from "./tickets.repo";
import type { TicketRow, TicketStatus } from "./tickets.table";
import { actorOf } from "./tickets.timeline";
import type { AttachmentRow } from "../attachments/attachments.public";
import { presentMessage, type KnownMessageParts } from "./messages.present";
import { insertMessageRow, messageReadStatements } from "./messages.statements";
import { messages, type AuthorType, type DeliveryStatus, type MessageRow } from "./messages.table";

export type EmailFields = {
  from_email: string;
  from_name: string;
  to: string[];
  cc: string[];
  bcc: string[];
  subject: string;
  reply_to: string;
  auth_failed: boolean;
  form_sender: string;
  has_quoted: boolean;
  email_message_id: string | null;
  original_path: string | null;
};

/**
 * What wrote a message, when the outbox must know: the auto-reply is sent marked Auto-Submitted;
 * an imported message (another desk's history) was delivered there long ago.
 */
export type MessageOrigin = "auto_reply" | "import";

export type AddMessageInput = {
  kind: "reply" | "note";
  /** The body as HTML (sanitized before storage); absent when the body is given as plain text only. */
  body_html?: string;
  /** Internal: body_html is already sanitizeHtmlBody's output (inbound plain-text bodies); never from a request. */
  body_html_sanitized?: boolean;
  /** Plain text: the body itself when body_html is absent, else the text form stored beside the HTML. */
  body_text?: string;
  cc?: string[];
  /** Blind copies of an outbound reply or forward: the SMTP envelope only, never a header. */
  bcc?: string[];
  /** A forward: a note mailed to these addresses with the conversation quoted (never to the contact). */
  forward_to?: string[];
  attachment_ids?: string[];
  status?: TicketStatus;
  direction?: "inbound" | "outbound";
  author?: { type: AuthorType; userId?: string | null; contactId?: string | null };
  email?: Partial<EmailFields>;
};

const mailedChannel = (channel: TicketRow["channel"]) => channel === "email" || channel === "portal";

function authorFor(
  ctx: RequestContext,
  input: AddMessageInput,
): { type: AuthorType; userId: string | null; contactId: string | null } {
  if (input.author)
    return { type: input.author.type, userId: input.author.userId ?? null, contactId: input.author.contactId ?? null };
  const actor = actorOf(ctx);
  return {
    type: actor.type === "user" ? "user" : actor.type === "system" || actor.type === "automation" ? "system" : "api",
    userId: actor.userId,
    contactId: null,
  };
}

/**
 * Builds the message row in JS (nothing is written). `contactEmail` is the ticket contact's
 * address (an outbound reply is addressed to it). What the message moves on its ticket (counters,
 * status) is the ticket's own rule: see `writeMessage` in tickets.write.ts.
 */
export function composeMessage(
  ctx: RequestContext,
  ticket: TicketRow,
  input: AddMessageInput,
  now: string,
  contactEmail: string | null,
): MessageRow {
  // A plain-text body becomes escaped paragraphs, which need no sanitizing; HTML from a request always does.
  const bodyHtml =
    input.body_html === undefined
      ? textToHtml(input.body_text ?? "")
      : input.body_html_sanitized
        ? input.body_html
        : sanitizeHtmlBody(input.body_html);
  const bodyText = input.body_text ?? htmlToText(bodyHtml);
  const direction = input.direction ?? "outbound";
  const author = authorFor(ctx, input);
  const email = input.email ?? {};
  const outboundReply = input.kind === "reply" && direction === "outbound";
  const forward = input.forward_to !== undefined && input.kind === "note" && direction === "outbound";
  const to = outboundReply ? contactEmail : null;
  const lists = {
    to: email.to ?? (forward ? (input.forward_to ?? []) : to ? [to] : []),
    cc: email.cc ?? input.cc ?? [],
    bcc: email.bcc ?? input.bcc ?? [],
  };
  // Received mail is stored as its headers said; only what we send is tidied.
  const recipients = direction === "outbound" ? distinctRecipients(lists.to, lists.cc, lists.bcc) : lists;
  return {
    id: newId(),
    workspaceId: ticket.workspaceId,
    ticketId: ticket.id,
    kind: input.kind,
    direction,
    authorType: author.type,
    authorUserId: author.userId,
    authorContactId: author.contactId,
    // A forward without a note of its own is only the quoted conversation, built when it is sent.
    bodyHtml: forward && input.body_html === undefined && input.body_text === undefined ? "" : bodyHtml,
    bodyText,
    hasQuoted: email.has_quoted ?? false,
    subject: email.subject ?? (forward ? `Fwd: ${ticket.subject}` : ticket.subject),
    fromEmail: email.from_email ?? "",
    fromName: email.from_name ?? "",
    ...recipients,
    // A portal customer (contact form, portal request) is answered by mail too, with the portal link.
    deliveryStatus: forward || (outboundReply && mailedChannel(ticket.channel)) ? "pending" : "none",
    deliveryError: "",
    deliveryVia: null,
    replyTo: email.reply_to ?? "",
    authFailed: email.auth_failed ?? false,
    formSender: email.form_sender ?? "",
    emailMessageId: email.email_message_id ?? null,
    originalPath: email.original_path ?? null,
    createdAt: now,
    forward,
  };
}

/**
 * Each address once (compared without case), in the first list that names it (To, then Cc, then
 * Bcc): a Bcc already in To or Cc would otherwise be told apart from the others by a second copy.
 */
function distinctRecipients(to: string[], cc: string[], bcc: string[]): { to: string[]; cc: string[]; bcc: string[] } {
  const seen = new Set<string>();
  const keep = (list: string[]) =>
    list.filter((address) => {
      const key = address.trim().toLowerCase();
      if (!key || seen.has(key)) return false;
      seen.add(key);
      return true;
    });
  return { to: keep(to), cc: keep(cc), bcc: keep(bcc) };
}

/** Stores a composed message and links its attachments; answers the linked attachments. */
export async function insertComposedMessage(
  tx: Tx,
  message: MessageRow,
  attachmentIds: string[] | undefined,
): Promise<AttachmentRow[]> {
  await insertMessageRow(tx, message);
  return attachmentIds?.length
    ? await attachToMessage(tx, message.workspaceId, message.id, attachmentIds, "body.attachment_ids")
    : [];
}

/** message.created: notes and email replies reach agents; a chat reply is public and reaches the contact too. */
export async function emitMessageCreated(
  tx: Tx,
  ticket: TicketRow,
  message: MessageRow,
  deps: Pick<Deps, "config" | "clock">,
  known: KnownMessageParts = {},
  /** What wrote the message (`auto_reply`), for the outbox hook: see NewEvent.origin. */
  origin?: MessageOrigin,
): Promise<void> {
  const isPublic = message.kind === "reply" && ticket.channel === "chat";
  await appendEvent(tx, messageCreated, {
    workspaceId: ticket.workspaceId,
    data: { ticket_id: ticket.id, message: await presentMessage(tx, message, attachmentLinks(deps), known) },
    visibility: isPublic ? "public" : "agents",
    privateTeamId: await privateTeamOf(tx, ticket.workspaceId, ticket.teamId),
    extraTopics: isPublic && ticket.contactId ? [contactTopic(ticket.workspaceId, ticket.contactId)] : [],
    ...(origin ? { origin } : {}),
  });
}

export async function listMessages(db: Queryable, ctx: RequestContext, ticketRef: string): Promise<MessageRow[]> {
  const ticket = await findVisibleTicket(db, ctx, ticketRef);
  return await db
    .select()
    .from(messages)
    .where(eq(messages.ticketId, ticket.id))
    .orderBy(asc(messages.createdAt), asc(messages.id));
}

/** A message the caller may see: its ticket must be visible to them. */
export async function findVisibleMessage(db: Queryable, ctx: RequestContext, messageId: string): Promise<MessageRow> {
  const row = first(
    await db
      .select()
      .from(messages)
      .where(and(eq(messages.id, messageId), eq(messages.workspaceId, ctx.workspaceId)))
      .limit(1),
  );
  if (!row) throw notFound("Message");
  try {
    await findVisibleTicket(db, ctx, row.ticketId);
  } catch {
    throw notFound("Message");
  }
  return row;
}

/** The full original: the stored raw message (quoted history included) when there is one, else the body. */
export async function originalOf(
  deps: Pick<Deps, "config" | "blobs">,
  row: MessageRow,
): Promise<{ content_type: string; body: string }> {
  const original = await storedOriginal(deps, row);
  if (original) return { content_type: "message/rfc822", body: await original.text() };
  return { content_type: "text/html; charset=utf-8", body: row.bodyHtml };
}

/** The untrimmed body of a received message as text, read again from its stored original. */
export async function fullTextOf(
  deps: Pick<Deps, "config" | "blobs">,
  row: MessageRow,
): Promise<{ content_type: string; body: string }> {
  const original = await storedOriginal(deps, row);
  if (original === null) return { content_type: "text/plain; charset=utf-8", body: row.bodyText };
  const email = await parseEmail(new Uint8Array(await original.arrayBuffer()));
  return {
    content_type: "text/plain; charset=utf-8",
    body: email.text.trim() ? email.text : htmlToText(email.html ?? ""),
  };
}

/**
 * The store's key of a message's original. Rows written before the store may hold an absolute path:
 * one under the data dir is that key; one anywhere else (another disk, a restored copy's old home)
 * is never read, as before.
 */
function originalKeyOf(dataDir: string, originalPath: string): string | null {
  if (!isAbsolute(originalPath)) return originalPath;
  const root = resolve(dataDir);
  const path = resolve(originalPath);
  return path.startsWith(`${root}/`) ? relative(root, path) : null;
}

/** The stored original, or null when there is none or its key is not one the store takes. */
async function storedOriginal(deps: Pick<Deps, "config" | "blobs">, row: MessageRow): Promise<Blob | null> {
  if (!row.originalPath) return null;
  const key = originalKeyOf(deps.config.dataDir, row.originalPath);
  if (key === null) return null;
  try {
    return await deps.blobs.get(key);
  } catch (error) {
    // A path climbing out of the data dir, or into its own files, answers the body as it did before.
    if (error instanceof BlobKeyError) return null;
    throw error;
  }
}

/** Records a delivery outcome of an outbound reply and emits message.updated. */
export async function setDeliveryStatus(
  ctx: RequestContext,
  messageId: string,
  status: DeliveryStatus,
  error: string | null | undefined,
  deps: Deps,
  via: MessageRow["deliveryVia"] = null,
): Promise<MessageRow> {
  return await transact(deps.db, async (tx) => {
    const row = first(
      await tx
        .update(messages)
        .set({ deliveryStatus: status, deliveryError: error ?? "", deliveryVia: via })
        .where(and(eq(messages.id, messageId), eq(messages.workspaceId, ctx.workspaceId)))
        .returning(),
    );
    if (!row) throw notFound("Message");
    const ticket = await reloadTicket(tx, row.ticketId);
    await appendEvent(tx, messageUpdated, {
      workspaceId: row.workspaceId,
      data: { ticket_id: row.ticketId, message: await presentMessage(tx, row, attachmentLinks(deps)) },
      privateTeamId: await privateTeamOf(tx, row.workspaceId, ticket.teamId),
    });
    return row;
  });
}

/** A message of the workspace by id (the send job reads the reply it delivers). */
export const messageOfWorkspace = async (
  db: Queryable,
  workspaceId: string,
  id: string,
): Promise<MessageRow | undefined> => await messageReadStatements(db).ofWorkspace(workspaceId, id);

/**
 * The replies (never notes) of a ticket written before a message, oldest first: at most `limit`
 * of the newest. A mailed reply quotes the customer's last one; a forward quotes them all.
 */
export const repliesBefore = async (
  db: Queryable,
  workspaceId: string,
  message: Pick<MessageRow, "id" | "ticketId" | "createdAt">,
  limit: number,
): Promise<MessageRow[]> => (await messageReadStatements(db).repliesBefore(workspaceId, message, limit)).reverse();

/** Who wrote a ticket's first message (its creator, for a ticket created with one), or undefined. */
export const firstMessageAuthorOf = async (
  db: Queryable,
  workspaceId: string,
  ticketId: string,
): Promise<Pick<MessageRow, "authorType" | "authorUserId" | "createdAt"> | undefined> =>
  first(
    await db
      .select({ authorType: messages.authorType, authorUserId: messages.authorUserId, createdAt: messages.createdAt })
      .from(messages)
      .where(and(eq(messages.ticketId, ticketId), eq(messages.workspaceId, workspaceId)))
      .orderBy(asc(messages.createdAt), asc(messages.id))
      .limit(1),
  );
