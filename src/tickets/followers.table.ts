import { index, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { createdAt, workspaceId } from "../db/columns";

/** Who follows which ticket: they get the ticket's notifications an assignee gets (bar `assigned`). */
export const ticketFollowers = sqliteTable(
  "ticket_followers",
  {
    ticketId: text("ticket_id").notNull(),
    userId: text("user_id").notNull(),
    workspaceId: workspaceId(),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.ticketId, t.userId] }),
    index("ticket_followers_user_idx").on(t.workspaceId, t.userId),
  ],
);
