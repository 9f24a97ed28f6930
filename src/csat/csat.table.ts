import { sqliteTable } from "../db/schema-kit";
import { csatRequestsTable } from "./csat.definition";

/** The SQLite builds of csat.definition.ts: what every query, type and migration uses. */
export const csatRequests = sqliteTable("csat_requests", csatRequestsTable);

export type CsatRequestRow = typeof csatRequests.$inferSelect;
