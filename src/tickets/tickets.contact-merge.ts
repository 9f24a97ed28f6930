import { and, eq, inArray } from "drizzle-orm";
import type { Tx } from "../db/database";
import { messages } from "./messages.table";
import { tickets } from "./tickets.table";

/**
 * A contact merge (src/contacts) moves the merged contact's tickets, deleted ones included, and the
 * messages it wrote on them to the contact that remains: one statement each, whatever their number. The
 * tickets change without events of their own (`contact.merged` tells clients, as `tag.merged`
 * does for labels). Answers how many tickets moved.
 */
export async function moveContactTickets(tx: Tx, workspaceId: string, fromId: string, intoId: string): Promise<number> {
  const moved = await tx
    .update(tickets)
    .set({ contactId: intoId })
    .where(and(eq(tickets.workspaceId, workspaceId), eq(tickets.contactId, fromId)))
    .returning({ id: tickets.id });
  // Through the remaining contact's tickets (tickets_ws_contact_idx, then messages_ticket_idx): no index
  // reads messages by author, and the merged contact wrote on its own tickets.
  await tx
    .update(messages)
    .set({ authorContactId: intoId })
    .where(
      and(
        eq(messages.authorContactId, fromId),
        inArray(
          messages.ticketId,
          tx
            .select({ id: tickets.id })
            .from(tickets)
            .where(and(eq(tickets.workspaceId, workspaceId), eq(tickets.contactId, intoId))),
        ),
      ),
    );
  return moved.length;
}
