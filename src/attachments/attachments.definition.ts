import { sql } from "drizzle-orm";
import { bigint, createdAt, flag, id, index, table, text, workspaceId } from "../db/schema-kit";

// Each table declared once with the schema kit (src/db/schema-kit.ts): attachments.table.ts builds it for
// SQLite (queries, types, migrations), attachments.table.pg.ts for PostgreSQL.

export const attachmentsTable = table(
  "attachments",
  {
    id: id(),
    workspaceId: workspaceId(),
    /** null while unattached: an upload waiting for the message that references it. */
    messageId: text("message_id"),
    filename: text("filename").notNull(),
    contentType: text("content_type").notNull(),
    sizeBytes: bigint("size_bytes").notNull(),
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
