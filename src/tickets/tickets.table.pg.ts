/**
 * The PostgreSQL builds of tickets.definition.ts under the names the feature imports:
 * `tsconfig.pg.json` resolves `./tickets.table` here. Not named `*.table.ts`, so drizzle-kit (SQLite) never reads it.
 */
import { pgTable } from "../db/schema-kit";
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

export const tickets = pgTable("tickets", ticketsTable);
export const activities = pgTable("activities", activitiesTable);

export type TicketRow = typeof tickets.$inferSelect;
export type ActivityRow = typeof activities.$inferSelect;
