import { first } from "../db/store";
import { and, asc, desc, eq, lt, or } from "drizzle-orm";
import type { AttachmentLinks } from "../attachments/attachments.public";
import type { Queryable } from "../db/database";
import { presentMessages, type MessageJson } from "./messages.present";
import { messages, type MessageRow } from "./messages.table";
import { liveTicket } from "./tickets.repo";
import { ticketReadStatements } from "./tickets.statements";
import { tickets, type TicketRow } from "./tickets.table";

/**
 * Reads the chat widget needs of a contact's chat tickets: its conversations, one of them (only
 * when it is that contact's), and their public messages (replies, never notes).
 */

/** A contact's live chat tickets, newest activity first, keyset-paged on (last_message_at, id). */
export async function chatTicketsOfContact(
  db: Queryable,
  workspaceId: string,
  contactId: string,
  limit: number,
  after: { lastMessageAt: string; id: string } | null,
): Promise<TicketRow[]> {
  return await db
    .select()
    .from(tickets)
    .where(
      and(
        eq(tickets.workspaceId, workspaceId),
        eq(tickets.contactId, contactId),
        eq(tickets.channel, "chat"),
        liveTicket,
        after
          ? or(
              lt(tickets.lastMessageAt, after.lastMessageAt),
              and(eq(tickets.lastMessageAt, after.lastMessageAt), lt(tickets.id, after.id)),
            )
          : undefined,
      ),
    )
    .orderBy(desc(tickets.lastMessageAt), desc(tickets.id))
    .limit(limit);
}

/** The contact's live chat ticket with this id, or undefined (another contact's, another workspace's, not chat). */
export async function chatTicketOfContact(
  db: Queryable,
  workspaceId: string,
  contactId: string,
  ticketId: string,
): Promise<TicketRow | undefined> {
  return first(
    await db
      .select()
      .from(tickets)
      .where(
        and(
          eq(tickets.id, ticketId),
          eq(tickets.workspaceId, workspaceId),
          eq(tickets.contactId, contactId),
          eq(tickets.channel, "chat"),
          liveTicket,
        ),
      )
      .limit(1),
  );
}

/** The contact of a live chat ticket (who hears an agent typing), or null for any other ticket. */
export async function chatContactOfTicket(
  db: Queryable,
  workspaceId: string,
  ticketId: string,
): Promise<string | null> {
  // A consumer asks this of every agent reply, chat or not: a statement compiled once per connection.
  return (await ticketReadStatements(db).chatContact(workspaceId, ticketId))?.contactId ?? null;
}

/** A ticket's public messages (replies, in order), presented as the REST API does; notes are never read. */
export async function publicMessagesOf(
  db: Queryable,
  ticketId: string,
  links: AttachmentLinks,
): Promise<MessageJson[]> {
  const rows = await db
    .select()
    .from(messages)
    .where(and(eq(messages.ticketId, ticketId), eq(messages.kind, "reply")))
    .orderBy(asc(messages.createdAt), asc(messages.id));
  return await presentMessages(db, rows, links);
}

/** One message presented as the REST API does (a message the widget just wrote). */
export const presentChatMessage = async (
  db: Queryable,
  row: MessageRow,
  links: AttachmentLinks,
): Promise<MessageJson> => (await presentMessages(db, [row], links))[0]!;
