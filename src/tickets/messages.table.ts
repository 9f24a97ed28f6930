import { deskTable } from "../db/schema-kit";
import { messagesTable } from "./messages.definition";

export { DELIVERY_STATUSES, type AuthorType, type DeliveryStatus } from "./messages.definition";

/** The builds of messages.definition.ts this process runs on (schema-kit `deskTable`): what every query, type and migration uses. */
export const messages = deskTable("messages", messagesTable);

export type MessageRow = typeof messages.$inferSelect;
