/**
 * The PostgreSQL builds of events.definition.ts under the names the feature imports:
 * `tsconfig.pg.json` resolves `./events.table` here. Not named `*.table.ts`, so drizzle-kit (SQLite) never reads it.
 */
import { pgTable } from "../db/schema-kit";
import { eventConsumersTable, eventSeqsTable, eventsTable } from "./events.definition";

export const events = pgTable("events", eventsTable);
export const eventSeqs = pgTable("event_seqs", eventSeqsTable);
export const eventConsumers = pgTable("event_consumers", eventConsumersTable);
