import { sqliteTable } from "../db/schema-kit";
import { webhookDeliveriesTable, webhooksTable } from "./webhooks.definition";

/** The SQLite builds of webhooks.definition.ts: what every query, type and migration uses. */
export const webhooks = sqliteTable("webhooks", webhooksTable);
export const webhookDeliveries = sqliteTable("webhook_deliveries", webhookDeliveriesTable);
