import { index, primaryKey, table, text, timestamp, workspaceId } from "../db/schema-kit";

/**
 * When each member last looked at each ticket (the inbox's read/unread state): one row per person
 * and ticket, at most READS_PER_MEMBER per person and workspace (the oldest go first).
 */
export const ticketReadsTable = table(
  "ticket_reads",
  {
    workspaceId: workspaceId(),
    userId: text("user_id").notNull(),
    ticketId: text("ticket_id").notNull(),
    seenAt: timestamp("seen_at").notNull(),
  },
  (t) => [primaryKey(t.userId, t.ticketId), index("ticket_reads_member_idx").on(t.workspaceId, t.userId, t.seenAt)],
);
