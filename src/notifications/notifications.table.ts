import { index, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { createdAt, id, json, timestamp, workspaceId } from "../db/columns";

export type NotificationTicketRef = { id: string; number: number; subject: string };

/** One row per person told something; `ticket` is the reference as it was when they were told. */
export const notifications = sqliteTable(
  "notifications",
  {
    id: id(),
    workspaceId: workspaceId(),
    userId: text("user_id").notNull(),
    type: text("type").notNull(),
    ticket: json<NotificationTicketRef>("ticket"),
    data: json<Record<string, unknown>>("data").notNull(),
    readAt: timestamp("read_at"),
    createdAt: createdAt(),
  },
  (t) => [index("notifications_user_idx").on(t.workspaceId, t.userId, t.id)],
);
