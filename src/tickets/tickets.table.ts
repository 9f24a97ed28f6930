import { sqliteTable } from "../db/schema-kit";
import { activitiesTable, ticketsTable } from "./tickets.definition";

export {
  CHANNELS,
  PRIORITIES,
  SEVERITIES,
  TICKET_STATUSES,
  type Channel,
  type Priority,
  type Severity,
  type TicketCsat,
  type TicketSla,
  type TicketStatus,
} from "./tickets.definition";

/** The SQLite builds of tickets.definition.ts: what every query, type and migration uses. */
export const tickets = sqliteTable("tickets", ticketsTable);
export const activities = sqliteTable("activities", activitiesTable);

export type TicketRow = typeof tickets.$inferSelect;
export type ActivityRow = typeof activities.$inferSelect;
