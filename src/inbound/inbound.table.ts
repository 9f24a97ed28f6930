import { primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { createdAt, workspaceId } from "../db/columns";

/** One row per mail ingested into a mailbox: the Message-ID, or a hash of the raw bytes without one. */
export const inboundReceipts = sqliteTable(
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
  (t) => [primaryKey({ columns: [t.mailboxId, t.dedupeKey] })],
);
