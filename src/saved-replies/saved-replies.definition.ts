import { sql } from "drizzle-orm";
import { createdAt, id, index, table, text, uniqueIndex, updatedAt, workspaceId } from "../db/schema-kit";

// Each table declared once with the schema kit (src/db/schema-kit.ts): saved-replies.table.ts builds it for
// SQLite (queries, types, migrations), saved-replies.table.pg.ts for PostgreSQL.

export const savedRepliesTable = table(
  "saved_replies",
  {
    id: id(),
    workspaceId: workspaceId(),
    title: text("title").notNull(),
    shortcut: text("shortcut"),
    /** Lowercased shortcut: unique per workspace ignoring case. */
    shortcutKey: text("shortcut_key"),
    bodyHtml: text("body_html").notNull(),
    createdBy: text("created_by"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("saved_replies_shortcut_unique").on(t.workspaceId, t.shortcutKey).where(sql`shortcut_key IS NOT NULL`),
    index("saved_replies_workspace_idx").on(t.workspaceId, t.title),
  ],
);
