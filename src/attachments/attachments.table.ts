import { sql } from "drizzle-orm";
import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { createdAt, flag, id, workspaceId } from "../db/columns";

export const attachments = sqliteTable(
  "attachments",
  {
    id: id(),
    workspaceId: workspaceId(),
    /** null while unattached: an upload waiting for the message that references it. */
    messageId: text("message_id"),
    filename: text("filename").notNull(),
    contentType: text("content_type").notNull(),
    sizeBytes: integer("size_bytes").notNull(),
    inline: flag("inline"),
    contentId: text("content_id"),
    /** File name under <data dir>/attachments. */
    storageKey: text("storage_key").notNull(),
    uploadedBy: text("uploaded_by"),
    createdAt: createdAt(),
  },
  (t) => [
    index("attachments_message_idx").on(t.messageId),
    index("attachments_unattached_idx").on(t.createdAt).where(sql`message_id IS NULL`),
  ],
);

export type AttachmentRow = typeof attachments.$inferSelect;
