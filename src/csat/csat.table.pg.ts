/**
 * The PostgreSQL builds of csat.definition.ts under the names the feature imports:
 * `tsconfig.pg.json` resolves `./csat.table` here. Not named `*.table.ts`, so drizzle-kit (SQLite) never reads it.
 */
import { pgTable } from "../db/schema-kit";
import { csatRequestsTable } from "./csat.definition";

export const csatRequests = pgTable("csat_requests", csatRequestsTable);

export type CsatRequestRow = typeof csatRequests.$inferSelect;
