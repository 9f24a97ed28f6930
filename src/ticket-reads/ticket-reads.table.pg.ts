/**
 * The PostgreSQL build of ticket-reads.definition.ts under the names the feature imports:
 * `tsconfig.pg.json` resolves `./ticket-reads.table` here. Not named `*.table.ts`, so drizzle-kit (SQLite) never reads it.
 */
import { pgTable } from "../db/schema-kit";
import { ticketReadsTable } from "./ticket-reads.definition";

export const ticketReads = pgTable("ticket_reads", ticketReadsTable);
