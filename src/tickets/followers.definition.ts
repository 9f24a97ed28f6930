import { createdAt, index, primaryKey, table, text, workspaceId } from "../db/schema-kit";

// Each table declared once with the schema kit (src/db/schema-kit.ts): followers.table.ts builds it for
// SQLite (queries, types, migrations), followers.table.pg.ts for PostgreSQL.

/** Who follows which ticket: they get the ticket's notifications an assignee gets (bar `assigned`). */
export const ticketFollowersTable = table(
  "ticket_followers",
  {
    ticketId: text("ticket_id").notNull(),
    userId: text("user_id").notNull(),
    workspaceId: workspaceId(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey(t.ticketId, t.userId), index("ticket_followers_user_idx").on(t.workspaceId, t.userId)],
);
