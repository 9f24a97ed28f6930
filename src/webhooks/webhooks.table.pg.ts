/**
 * The PostgreSQL builds of webhooks.definition.ts under the names the feature imports:
 * `tsconfig.pg.json` resolves `./webhooks.table` here. Not named `*.table.ts`, so drizzle-kit (SQLite) never reads it.
 */
import { pgTable } from "../db/schema-kit";
import { webhookDeliveriesTable, webhooksTable } from "./webhooks.definition";

export const webhooks = pgTable("webhooks", webhooksTable);
export const webhookDeliveries = pgTable("webhook_deliveries", webhookDeliveriesTable);
