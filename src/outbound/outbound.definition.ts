import { createdAt, index, primaryKey, table, text, workspaceId } from "../db/schema-kit";

/**
 * Every RFC Message-ID we have seen or sent, mapped to its ticket: replies thread through
 * In-Reply-To/References by looking ids up here. Outbound ids are ours (`<id@instance domain>`).
 */
export const mailMessageIdsTable = table(
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
    primaryKey(t.workspaceId, t.messageId),
    index("mail_message_ids_desk_idx").on(t.deskMessageId),
    // A reply's In-Reply-To and References read its ticket's ids: without this, every reply scanned
    // the ids of its whole workspace (each mail cost grew with the workspace's mail).
    index("mail_message_ids_ticket_idx").on(t.workspaceId, t.ticketId, t.createdAt),
  ],
);

/**
 * Outlook's conversation key (the first 22 bytes of `Thread-Index`, as hex) of mail we received or
 * sent, mapped to its ticket: an Outlook reply that lost In-Reply-To still carries it. The first
 * ticket to record a key keeps it.
 */
export const mailConversationsTable = table(
  "mail_conversations",
  {
    workspaceId: workspaceId(),
    conversationKey: text("conversation_key").notNull(),
    ticketId: text("ticket_id").notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey(t.workspaceId, t.conversationKey),
    index("mail_conversations_ticket_idx").on(t.workspaceId, t.ticketId, t.createdAt),
  ],
);
