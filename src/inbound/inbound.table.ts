import { sqliteTable } from "../db/schema-kit";
import { inboundReceiptsTable } from "./inbound.definition";

/** The SQLite build of inbound.definition.ts: what every query, type and migration uses. */
export const inboundReceipts = sqliteTable("inbound_receipts", inboundReceiptsTable);
