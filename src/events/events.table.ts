import { deskTable } from "../db/schema-kit";
import { eventConsumersTable, eventSeqsTable, eventsTable } from "./events.definition";

/** The builds of events.definition.ts this process runs on (schema-kit `deskTable`): what every query, type and migration uses. */
export const events = deskTable("events", eventsTable);
export const eventSeqs = deskTable("event_seqs", eventSeqsTable);
export const eventConsumers = deskTable("event_consumers", eventConsumersTable);
