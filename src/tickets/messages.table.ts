import { sqliteTable } from "../db/schema-kit";
import { messagesTable } from "./messages.definition";

export { DELIVERY_STATUSES, type AuthorType, type DeliveryStatus } from "./messages.definition";

/** The SQLite builds of messages.definition.ts: what every query, type and migration uses. */
export const messages = sqliteTable("messages", messagesTable);

export type MessageRow = typeof messages.$inferSelect;
