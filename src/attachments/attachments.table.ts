import { sqliteTable } from "../db/schema-kit";
import { attachmentsTable } from "./attachments.definition";

/** The SQLite builds of attachments.definition.ts: what every query, type and migration uses. */
export const attachments = sqliteTable("attachments", attachmentsTable);

export type AttachmentRow = typeof attachments.$inferSelect;
