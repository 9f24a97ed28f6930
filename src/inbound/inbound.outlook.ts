import type { Queryable } from "../db/database";
import type { ParsedEmail } from "../mail/mail.parse";
import { hasReplyPrefix, normalizedSubject } from "../mail/mail.subject";
import { conversationKeyOf, isThreadIndexReply, ticketOfConversation } from "../outbound/outbound.public";
import { openTicketsOfContactSince, ticketOfWorkspace, undeletedTicketIds } from "../tickets/tickets.public";

/** How far back a reply that lost every header still finds its ticket by subject. */
export const SUBJECT_THREAD_DAYS = 30;
/** Open tickets of one contact read for a subject match; a contact with more is matched among the newest. */
const SUBJECT_CANDIDATES = 50;
const DAY_MS = 24 * 3600 * 1000;

type Thread = { ticketId: string } | null;

/** The raw Thread-Index header of a mail, if any. */
export const threadIndexOf = (email: ParsedEmail): string | null => email.headers.get("thread-index")?.[0] ?? null;

/**
 * An Outlook reply without In-Reply-To (Outlook and Exchange drop it, keeping only `Thread-Index`
 * and `Thread-Topic`): first by the conversation key of its Thread-Index, recorded for mail we sent
 * and received on a ticket; then, for a mail that says it is a reply (a `RE:`-like prefix or a
 * child Thread-Index), by subject: the contact's one open or pending ticket of the last 30 days
 * whose normalised subject is the mail's (or its Thread-Topic's). Both only ever find a ticket of
 * this workspace whose contact is the sender: the key travels to everyone on the thread and a
 * subject is no secret, so neither threads one customer's mail onto another's ticket.
 */
export async function threadByOutlookHeaders(
  db: Queryable,
  workspaceId: string,
  email: ParsedEmail,
  contactId: string,
  now: Date,
): Promise<Thread> {
  const threadIndex = threadIndexOf(email);
  const key = conversationKeyOf(threadIndex);
  if (key) {
    const ticketId = await ticketOfConversation(db, workspaceId, key);
    if (ticketId) {
      const row = await ticketOfWorkspace(db, workspaceId, ticketId);
      if (row?.contactId === contactId && (await undeletedTicketIds(db, workspaceId, [ticketId])).has(ticketId))
        return { ticketId };
    }
  }
  if (!hasReplyPrefix(email.subject) && !isThreadIndexReply(threadIndex)) return null;
  const wanted = new Set([normalizedSubject(email.subject), normalizedSubject(email.threadTopic ?? "")]);
  wanted.delete("");
  if (wanted.size === 0) return null;
  const since = new Date(now.getTime() - SUBJECT_THREAD_DAYS * DAY_MS).toISOString();
  const matches = (await openTicketsOfContactSince(db, workspaceId, contactId, since, SUBJECT_CANDIDATES)).filter((t) =>
    wanted.has(normalizedSubject(t.subject)),
  );
  // Two open tickets of that subject: which one is meant is a guess, and a new ticket is the safe one.
  return matches.length === 1 ? { ticketId: matches[0]!.id } : null;
}
