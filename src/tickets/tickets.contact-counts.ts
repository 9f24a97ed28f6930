import type { ContactTicketCounts } from "../contacts/contacts.public";
import { ticketCountStatements } from "./tickets.statements";

/** Each page of presented contacts counts its tickets in one statement. */
export const liveTicketCountsOfContacts: ContactTicketCounts = async (db, workspaceId, ids) =>
  await ticketCountStatements(db).liveTicketsOfContacts(workspaceId, ids);
