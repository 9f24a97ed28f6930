import type { Queryable } from "../db/database";
import { stripSubjectPrefixes } from "../mail/mail.subject";
import { outboundStatements } from "./outbound.statements";

/**
 * Outlook threads by `Thread-Index`: base64 of a 22-byte conversation header (a FILETIME and a GUID)
 * and one 5-byte block per reply. A reply keeps the header even when it loses In-Reply-To, so the
 * header (its hex, the conversation key) maps mail back to a ticket. Keys of mail we received and
 * keys of mail we sent are both recorded here.
 */
const HEADER_BYTES = 22;
const CHILD_BYTES = 5;
/** A longer value is no Outlook index (a conversation of ~100 replies is 522 bytes). */
const MAX_INDEX_CHARS = 2_000;
// FILETIME counts 100 ns ticks since 1601-01-01; Unix time starts 11,644,473,600 s later.
const FILETIME_UNIX_OFFSET = 116_444_736_000_000_000n;

/** Decoded Thread-Index bytes, or null when the value is not one (wrong length, not base64). */
function threadIndexBytes(value: string | null | undefined): Buffer | null {
  const compact = (value ?? "").replace(/\s+/g, "");
  if (!compact || compact.length > MAX_INDEX_CHARS || !/^[A-Za-z0-9+/]+={0,2}$/.test(compact)) return null;
  const bytes = Buffer.from(compact, "base64");
  if (bytes.length < HEADER_BYTES || (bytes.length - HEADER_BYTES) % CHILD_BYTES !== 0) return null;
  return bytes;
}

/** The conversation key (hex of the first 22 bytes) of a Thread-Index header, or null. */
export function conversationKeyOf(threadIndex: string | null | undefined): string | null {
  return threadIndexBytes(threadIndex)?.subarray(0, HEADER_BYTES).toString("hex") ?? null;
}

/** True when a Thread-Index names a reply within a conversation (it has child blocks), not its start. */
export function isThreadIndexReply(threadIndex: string | null | undefined): boolean {
  const bytes = threadIndexBytes(threadIndex);
  return bytes !== null && bytes.length > HEADER_BYTES;
}

/** Records a conversation key for a ticket (the first ticket to record a key keeps it). */
export async function rememberConversation(
  db: Queryable,
  entry: { workspaceId: string; key: string; ticketId: string; createdAt: string },
): Promise<void> {
  await outboundStatements(db).rememberConversation(entry);
}

/** The ticket a conversation key of this workspace belongs to, or null. */
export const ticketOfConversation = async (db: Queryable, workspaceId: string, key: string): Promise<string | null> =>
  await outboundStatements(db).ticketOfConversation(workspaceId, key);

const filetimeOf = (at: Date): bigint => BigInt(at.getTime()) * 10_000n + FILETIME_UNIX_OFFSET;

/**
 * A ticket's own conversation key when it has none recorded: the top 6 bytes of the ticket's
 * creation FILETIME and its id's 16 bytes, as Outlook builds one from a time and a GUID.
 */
export function ticketConversationKey(ticketId: string, ticketCreatedAt: string): string {
  const time = Buffer.alloc(8);
  time.writeBigUInt64BE(filetimeOf(new Date(ticketCreatedAt)));
  const guid = Buffer.from(ticketId.replace(/-/g, "").padEnd(32, "0").slice(0, 32), "hex");
  return Buffer.concat([time.subarray(0, 6), guid]).toString("hex");
}

/**
 * `Thread-Index` and `Thread-Topic` for mail we send on a ticket: the conversation key the ticket
 * recorded first (an Outlook customer's own), else its own, recorded now; then one child block
 * whose time difference is taken from the header's FILETIME, as Outlook's replies do.
 */
export async function outlookThreadHeaders(
  db: Queryable,
  ticket: { id: string; workspaceId: string; subject: string; createdAt: string },
  now: Date,
): Promise<{ "Thread-Index": string; "Thread-Topic": string }> {
  let key = await outboundStatements(db).firstConversationKey(ticket.workspaceId, ticket.id);
  if (!key) {
    key = ticketConversationKey(ticket.id, ticket.createdAt);
    await rememberConversation(db, {
      workspaceId: ticket.workspaceId,
      key,
      ticketId: ticket.id,
      createdAt: now.toISOString(),
    });
  }
  const header = Buffer.from(key, "hex");
  const started = Buffer.alloc(8);
  header.copy(started, 0, 0, 6);
  const delta = filetimeOf(now) - started.readBigUInt64BE();
  // Outlook's child block: a code bit and 31 bits of the time difference (ticks >> 18), then 8 bits of noise.
  const child = Buffer.alloc(CHILD_BYTES);
  child.writeUInt32BE(Number((delta > 0n ? delta >> 18n : 0n) & 0x7fffffffn), 0);
  child[4] = now.getTime() & 0xff;
  return {
    "Thread-Index": Buffer.concat([header, child]).toString("base64"),
    "Thread-Topic": stripSubjectPrefixes(ticket.subject).slice(0, 250),
  };
}
