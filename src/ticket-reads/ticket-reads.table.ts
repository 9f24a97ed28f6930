import { sqliteTable } from "../db/schema-kit";
import { ticketReadsTable } from "./ticket-reads.definition";

/** The SQLite build of ticket-reads.definition.ts: what every query, type and migration uses. */
export const ticketReads = sqliteTable("ticket_reads", ticketReadsTable);
