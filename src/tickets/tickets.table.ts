import { deskTable } from "../db/schema-kit";
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

/** The builds of tickets.definition.ts this process runs on (schema-kit `deskTable`): what every query, type and migration uses. */
export const tickets = deskTable("tickets", ticketsTable);
export const activities = deskTable("activities", activitiesTable);

export type TicketRow = typeof tickets.$inferSelect;
export type ActivityRow = typeof activities.$inferSelect;
