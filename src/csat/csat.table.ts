import { deskTable } from "../db/schema-kit";
import { csatRequestsTable } from "./csat.definition";

/** The builds of csat.definition.ts this process runs on (schema-kit `deskTable`): what every query, type and migration uses. */
export const csatRequests = deskTable("csat_requests", csatRequestsTable);

export type CsatRequestRow = typeof csatRequests.$inferSelect;
