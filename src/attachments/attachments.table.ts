import { deskTable } from "../db/schema-kit";
import { attachmentsTable } from "./attachments.definition";

/** The builds of attachments.definition.ts this process runs on (schema-kit `deskTable`): what every query, type and migration uses. */
export const attachments = deskTable("attachments", attachmentsTable);

export type AttachmentRow = typeof attachments.$inferSelect;
