import { first } from "../db/store";
import { and, count, eq, inArray, isNull, lt, sql, type SQL } from "drizzle-orm";
import type { RequestContext } from "../auth/context";
import type { Queryable } from "../db/database";
import { ticketScope } from "./tickets.list";
import { ticketSqlParts } from "./tickets.statements";
import { tickets, type TicketRow } from "./tickets.table";

/**
 * The ticket aggregate as other features see it: the one write API (create, patch, add a message,
 * merge, delete, wake, delivery outcomes) and the reads they need. Every change to a ticket, its
 * messages and its timeline goes through these functions, which own the status rules, the
 * counters, the activities and the events; nothing outside src/tickets writes these tables.
 */

/** The tickets a caller may count in reports: visible to them (private teams' only for members), live, not spam. */
export const reportableTicketsSql = async (db: Queryable, ctx: RequestContext): Promise<SQL> =>
  and(...(await ticketScope(db, ctx)), eq(tickets.spam, false))!;
export { reportTicketsSql } from "./tickets.report-sql";
export { privateTeamOfLiveTicket } from "./tickets.presence";
/**
 * Counts the caller's visible, live, non-spam tickets in `statuses` (the assistant's tips): only
 * unassigned, only the caller's, created before a time, among given ids, waiting on an agent (the
 * customer wrote last), or with triage's stored `sla_risk` at least a value.
 */
export async function countTickets(
  db: Queryable,
  ctx: RequestContext,
  input: {
    statuses: string[];
    assignee?: string | null;
    createdBefore?: string;
    ids?: string[];
    customerWaiting?: boolean;
    minSlaRisk?: number;
  },
): Promise<number> {
  const where: SQL[] = [
    await reportableTicketsSql(db, ctx),
    inArray(tickets.status, input.statuses as TicketRow["status"][]),
  ];
  if (input.assignee === null) where.push(isNull(tickets.assigneeId));
  else if (input.assignee) where.push(eq(tickets.assigneeId, input.assignee));
  if (input.createdBefore) where.push(lt(tickets.createdAt, input.createdBefore));
  if (input.ids) where.push(inArray(tickets.id, input.ids.length ? input.ids : [""]));
  if (input.customerWaiting) where.push(sql`${tickets.lastCustomerMessageAt} >= ${tickets.lastMessageAt}`);
  if (input.minSlaRisk !== undefined) where.push(sql`${ticketSqlParts(db).slaRiskSql()} >= ${input.minSlaRisk}`);
  return (
    first(
      await db
        .select({ n: count() })
        .from(tickets)
        .where(and(...where))
        .limit(1),
    )?.n ?? 0
  );
}
export { presentTickets, userRefsOf, type TicketJson, type ContactRefJson } from "./tickets.present";
export { listTickets, ticketListRead, viewCountsRead } from "./tickets.list";
export {
  queryText,
  TicketListQuery,
  TicketSchema,
  UserRefSchema,
  type TicketListInput,
  type TicketPatch,
} from "./tickets.schemas";
export {
  liveTicketIdsAfter,
  SEARCH_RESULTS,
  searchTickets,
  ticketTextsForEmbedding,
  visibleTicketsAmong,
} from "./tickets.search";
export {
  CHANNELS,
  PRIORITIES,
  SEVERITIES,
  TICKET_STATUSES,
  type TicketRow,
  type TicketSla,
  type TicketStatus,
} from "./tickets.table";
export {
  createTicket,
  createTicketWithMessage,
  type CreateTicketInput,
  type CreatedTicket,
} from "./tickets.create";
export { addMessage, deleteTicket, getTicket, updateTicket, type TicketChangeOptions } from "./tickets.service";
export { patchTicketFields, type TicketFieldChange } from "./tickets.patch-fields";
export { mergeTicket } from "./tickets.merge";
export { wakeSnoozedTicket } from "./tickets.snooze";
export { addFollowers } from "./tickets.followers";
export { followerIdsOf } from "./followers.read";
export { moveContactTickets } from "./tickets.contact-merge";
export {
  importMessage,
  importTicket,
  updateImportedTicket,
  type ImportedMessageInput,
  type ImportedTicketInput,
} from "./tickets.import";
export { autoCloseTicket, solvedTicketsBefore } from "./tickets.lifecycle";
export { ticketNumberCounter, type TakeTicketNumber } from "./tickets.ports";
/** Contacts' ticket counts where no ports reach (a read pool worker runs the global search). */
export { liveTicketCountsOfContacts } from "./tickets.contact-counts";
export {
  firstMessageAuthorOf,
  listMessages,
  messageOfWorkspace,
  repliesBefore,
  setDeliveryStatus,
  type AddMessageInput,
  type EmailFields,
  type MessageOrigin,
} from "./messages.service";
export type { MessageRow } from "./messages.table";
export { firstMessageOf } from "./messages.statements";
export { liveSlaTicket, unsolvedTicketsAfter, type SlaTicketInput } from "./tickets.sla";
export {
  breachedTicketTimes,
  ticketTimesInRange,
  type TicketTimeColumn,
  type TicketTimes,
  type TimeCursor,
} from "./tickets.time-rules";
export { openTicketsOfContactSince, recentTicketsOfContact, ticketOfWorkspace } from "./tickets.repo";
export { isSpamTicket, ticketByNumberRow, undeletedTicketIds } from "./tickets.statements";
export {
  chatContactOfTicket,
  chatTicketOfContact,
  chatTicketsOfContact,
  presentChatMessage,
  publicMessagesOf,
} from "./tickets.chat";
export type { MessageJson } from "./messages.present";

/** Events others' consumers and hooks name (src/events/define.ts): their data is typed from these. */
export { activityCreated, messageCreated, ticketCreated, ticketDeleted, ticketUpdated } from "./tickets.events";
