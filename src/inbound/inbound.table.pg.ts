/**
 * The PostgreSQL build of inbound.definition.ts under the names the feature imports:
 * `tsconfig.pg.json` resolves `./inbound.table` here. Not named `*.table.ts`, so drizzle-kit (SQLite) never reads it.
 */
import { pgTable } from "../db/schema-kit";
import { inboundReceiptsTable } from "./inbound.definition";

export const inboundReceipts = pgTable("inbound_receipts", inboundReceiptsTable);
