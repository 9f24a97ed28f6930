import { createdAt, flag, id, index, json, table, text, workspaceId } from "../db/schema-kit";

// Each table declared once with the schema kit (src/db/schema-kit.ts): messages.table.ts builds it for
// SQLite (queries, types, migrations), messages.table.pg.ts for PostgreSQL.

export const DELIVERY_STATUSES = ["none", "pending", "sent", "failed", "bounced"] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];
export type AuthorType = "contact" | "user" | "system" | "api";

export const messagesTable = table(
  "messages",
  {
    id: id(),
    workspaceId: workspaceId(),
    ticketId: text("ticket_id").notNull(),
    kind: text("kind", { enum: ["reply", "note"] }).notNull(),
    direction: text("direction", { enum: ["inbound", "outbound"] }).notNull(),
    authorType: text("author_type", { enum: ["contact", "user", "system", "api"] }).notNull(),
    authorUserId: text("author_user_id"),
    authorContactId: text("author_contact_id"),
    bodyHtml: text("body_html").notNull(),
    bodyText: text("body_text").notNull(),
    hasQuoted: flag("has_quoted"),
    subject: text("subject").notNull().default(""),
    fromEmail: text("from_email").notNull().default(""),
    fromName: text("from_name").notNull().default(""),
    to: json<string[]>("to").notNull().default([]),
    cc: json<string[]>("cc").notNull().default([]),
    bcc: json<string[]>("bcc").notNull().default([]),
    deliveryStatus: text("delivery_status", { enum: ["none", "pending", "sent", "failed", "bounced"] })
      .notNull()
      .default("none"),
    deliveryError: text("delivery_error").notNull().default(""),
    /** How a `sent` reply left: handed to an SMTP server, or only written to the outbox folder (no relay configured). */
    deliveryVia: text("delivery_via", { enum: ["smtp", "outbox"] }),
    replyTo: text("reply_to").notNull().default(""),
    authFailed: flag("auth_failed"),
    formSender: text("form_sender").notNull().default(""),
    /** A note mailed to a third party with the conversation quoted (POST /tickets/{id}/forward), not to the contact. */
    forward: flag("forward"),
    /** RFC 5322 Message-ID, for threading replies onto their ticket. */
    emailMessageId: text("email_message_id"),
    /** The raw original (with quoted history) under the data dir, relative to it. */
    originalPath: text("original_path"),
    createdAt: createdAt(),
  },
  (t) => [
    index("messages_ticket_idx").on(t.ticketId, t.createdAt, t.id),
    index("messages_ws_email_message_id_idx").on(t.workspaceId, t.emailMessageId),
  ],
);
