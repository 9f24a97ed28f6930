import { and, eq, type SQL } from "drizzle-orm";
import type { RequestContext } from "../auth/context";
import type { Queryable } from "../db/database";
import { ticketScope } from "./tickets.list";
import { tickets } from "./tickets.table";

/**
 * The ticket aggregate as other features see it: the one write API (create, patch, add a message,
 * merge, delete, wake, delivery outcomes) and the reads they need. Every change to a ticket, its
 * messages and its timeline goes through these functions, which own the status rules, the
 * counters, the activities and the events; nothing outside src/tickets writes these tables.
 */

/** The tickets a caller may count in reports: visible to them (private teams' only for members), live, not spam. */
export const reportableTicketsSql = (db: Queryable, ctx: RequestContext): SQL =>
  and(...ticketScope(db, ctx), eq(tickets.spam, false))!;
export { presentTickets, userRefsOf, type TicketJson, type ContactRefJson } from "./tickets.present";
export { ticketScope } from "./tickets.list";
export { queryText, TicketSchema, UserRefSchema, type TicketPatch } from "./tickets.schemas";
export {
  liveTicketIdsAfter,
  SEARCH_RESULTS,
  searchTickets,
  ticketTextsForEmbedding,
  visibleTicketsAmong,
} from "./tickets.search";
export { CHANNELS, SEVERITIES, type TicketRow, type TicketStatus } from "./tickets.table";
export {
  addMessage,
  bulkUpdateTickets,
  createTicket,
  createTicketWithMessage,
  deleteTicket,
  getTicket,
  updateTicket,
  updateTicketByAi,
  wakeSnoozedTicket,
  type CreateTicketInput,
  type CreatedTicket,
} from "./tickets.service";
export { mergeTicket } from "./tickets.merge";
export {
  findVisibleMessage,
  listMessages,
  messageOfWorkspace,
  setDeliveryStatus,
  type AddMessageInput,
  type EmailFields,
  type MessageOrigin,
} from "./messages.service";
export type { MessageRow } from "./messages.table";
export { recentTicketsOfContact, ticketOfWorkspace } from "./tickets.repo";
export { isSpamTicket, ticketByNumberRow, undeletedTicketIds } from "./tickets.statements";
