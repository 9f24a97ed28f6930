import type { Queryable } from "../db/database";
import { definePort } from "../lib/ports";

/** Live (not deleted) tickets per contact of one workspace; contacts without tickets are absent. */
export type ContactTicketCounts = (
  db: Queryable,
  workspaceId: string,
  contactIds: string[],
) => Array<{ contactId: string; n: number }> | Promise<Array<{ contactId: string; n: number }>>;

/** Every presented contact shows its ticket count; tickets, above contacts, own the table and count them. */
export const contactTicketCounts = definePort<ContactTicketCounts>("contacts.ticketCounts");
