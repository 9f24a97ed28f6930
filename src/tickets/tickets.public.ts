/**
 * The ticket aggregate as other features see it: the one write API (create, patch, add a message,
 * merge, delete, wake, delivery outcomes) and the reads they need. Every change to a ticket, its
 * messages and its timeline goes through these functions, which own the status rules, the
 * counters, the activities and the events; nothing outside src/tickets writes these tables.
 */
export {
  addMessage,
  bulkUpdateTickets,
  createTicket,
  createTicketWithMessage,
  deleteTicket,
  getTicket,
  updateTicket,
  wakeSnoozedTicket,
  type CreateTicketInput,
  type CreatedTicket,
} from "./tickets.service";
export { mergeTicket } from "./tickets.merge";
export {
  findVisibleMessage,
  messageOfWorkspace,
  setDeliveryStatus,
  type AddMessageInput,
  type EmailFields,
  type MessageOrigin,
} from "./messages.service";
export type { MessageRow } from "./messages.table";
export { ticketOfWorkspace } from "./tickets.repo";
export { isSpamTicket, ticketByNumberRow, undeletedTicketIds } from "./tickets.statements";
export { ticketScope } from "./tickets.list";
export { presentTickets, userRefsOf, type ContactRefJson, type TicketJson } from "./tickets.present";
export { queryText, TicketSchema, UserRefSchema } from "./tickets.schemas";
export { CHANNELS, SEVERITIES, type TicketRow, type TicketStatus } from "./tickets.table";
