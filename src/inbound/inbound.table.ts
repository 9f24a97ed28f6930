import { deskTable } from "../db/schema-kit";
import { inboundReceiptsTable } from "./inbound.definition";

/** The builds of inbound.definition.ts this process runs on (schema-kit `deskTable`): what every query, type and migration uses. */
export const inboundReceipts = deskTable("inbound_receipts", inboundReceiptsTable);
