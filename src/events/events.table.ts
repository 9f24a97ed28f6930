import { sqliteTable } from "../db/schema-kit";
import { eventConsumersTable, eventSeqsTable, eventsTable } from "./events.definition";

/** The SQLite builds of events.definition.ts: what every query, type and migration uses. */
export const events = sqliteTable("events", eventsTable);
export const eventSeqs = sqliteTable("event_seqs", eventSeqsTable);
export const eventConsumers = sqliteTable("event_consumers", eventConsumersTable);
