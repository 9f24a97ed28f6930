/**
 * The PostgreSQL builds of messages.definition.ts under the names the feature imports:
 * `tsconfig.pg.json` resolves `./messages.table` here. Not named `*.table.ts`, so drizzle-kit (SQLite) never reads it.
 */
import { pgTable } from "../db/schema-kit";
import { messagesTable } from "./messages.definition";

export { DELIVERY_STATUSES, type AuthorType, type DeliveryStatus } from "./messages.definition";

export const messages = pgTable("messages", messagesTable);

export type MessageRow = typeof messages.$inferSelect;
