import { createdAt, primaryKey, table, text, workspaceId } from "../db/schema-kit";

/** One row per mail ingested into a mailbox: the Message-ID, or a hash of the raw bytes without one. */
export const inboundReceiptsTable = table(
  "inbound_receipts",
  {
    mailboxId: text("mailbox_id").notNull(),
    dedupeKey: text("dedupe_key").notNull(),
    workspaceId: workspaceId(),
    outcome: text("outcome").notNull(),
    ticketId: text("ticket_id"),
    deskMessageId: text("desk_message_id"),
    createdAt: createdAt(),
  },
  (t) => [primaryKey(t.mailboxId, t.dedupeKey)],
);
