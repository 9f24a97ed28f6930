import { index, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { createdAt, workspaceId } from "../db/columns";

/**
 * Every RFC Message-ID we have seen or sent, mapped to its ticket: replies thread through
 * In-Reply-To/References by looking ids up here. Outbound ids are ours (`<id@instance domain>`).
 */
export const mailMessageIds = sqliteTable(
  "mail_message_ids",
  {
    workspaceId: workspaceId(),
    messageId: text("message_id").notNull(),
    ticketId: text("ticket_id").notNull(),
    /** The Desk message row (null until known). */
    deskMessageId: text("desk_message_id"),
    direction: text("direction", { enum: ["inbound", "outbound"] }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.workspaceId, t.messageId] }),
    index("mail_message_ids_desk_idx").on(t.deskMessageId),
  ],
);
