import { deskTable } from "../db/schema-kit";
import { webhookDeliveriesTable, webhooksTable } from "./webhooks.definition";

/** The builds of webhooks.definition.ts this process runs on (schema-kit `deskTable`): what every query, type and migration uses. */
export const webhooks = deskTable("webhooks", webhooksTable);
export const webhookDeliveries = deskTable("webhook_deliveries", webhookDeliveriesTable);
