import { deskTable } from "../db/schema-kit";
import { ticketReadsTable } from "./ticket-reads.definition";

/** The builds of ticket-reads.definition.ts this process runs on (schema-kit `deskTable`): what every query, type and migration uses. */
export const ticketReads = deskTable("ticket_reads", ticketReadsTable);
