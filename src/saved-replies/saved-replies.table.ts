import { sql } from "drizzle-orm";
import { index, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { createdAt, id, updatedAt, workspaceId } from "../db/columns";

export const savedReplies = sqliteTable(
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
