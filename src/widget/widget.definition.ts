import {
  createdAt,
  flag,
  id,
  index,
  json,
  table,
  text,
  timestamp,
  uniqueIndex,
  updatedAt,
  workspaceId,
} from "../db/schema-kit";

/** A workspace's chat widget settings; a workspace without a row has the defaults (enabled, no origin limit). */
export const widgetSettingsTable = table("widget_settings", {
  workspaceId: text("workspace_id").primaryKey(),
  enabled: flag("enabled"),
  greeting: text("greeting").notNull(),
  requireEmail: flag("require_email"),
  /** Origins (`https://shop.example`, `https://*.example.com`) whose pages may run the widget; empty: any. */
  allowedOrigins: json<string[]>("allowed_origins").notNull().default([]),
  /** The mailbox unseen chat replies are mailed from; null: the workspace's first mailbox. */
  replyMailboxId: text("reply_mailbox_id"),
  updatedAt: updatedAt(),
});

/**
 * A visitor's widget session: the visitor token is stored only as its SHA-256. Sliding expiry:
 * each resume or request moves `expires_at`. A verified session came with a valid `user_hash`.
 */
export const visitorSessionsTable = table(
  "visitor_sessions",
  {
    id: id(),
    workspaceId: workspaceId(),
    contactId: text("contact_id").notNull(),
    tokenHash: text("token_hash").notNull(),
    verified: flag("verified"),
    /** The email the visitor gave when another contact already holds it (never linked to that contact). */
    claimedEmail: text("claimed_email"),
    /** What the widget last reported (page, browser, time zone): visitor-supplied, capped, shown to agents as text. */
    pageUrl: text("page_url"),
    userAgent: text("user_agent"),
    timeZone: text("time_zone"),
    createdAt: createdAt(),
    lastSeenAt: timestamp("last_seen_at").notNull(),
    expiresAt: timestamp("expires_at").notNull(),
  },
  (t) => [
    uniqueIndex("visitor_sessions_token_unique").on(t.tokenHash),
    index("visitor_sessions_contact_idx").on(t.workspaceId, t.contactId),
  ],
);

/** Files a visitor uploaded: only their own uploads may be attached to their messages. */
export const widgetUploadsTable = table(
  "widget_uploads",
  {
    attachmentId: text("attachment_id").primaryKey(),
    workspaceId: workspaceId(),
    contactId: text("contact_id").notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("widget_uploads_contact_idx").on(t.workspaceId, t.contactId)],
);

/**
 * Per chat ticket: the newest agent reply its visitor saw in the widget, and the newest one mailed
 * to them. A reply newer than both, unseen after a short delay, is mailed (widget.chat-mail.ts).
 */
export const chatReplyMarksTable = table("chat_reply_marks", {
  ticketId: text("ticket_id").primaryKey(),
  workspaceId: workspaceId(),
  seenThrough: timestamp("seen_through"),
  mailedThrough: timestamp("mailed_through"),
  updatedAt: updatedAt(),
});

/**
 * A chat visitor's typed email, asked to confirm before any chat reply is mailed there: the visitor
 * may have typed anyone's address. Only the token's SHA-256 is kept; `confirmed_at` is set when the
 * address's owner confirms from the mail.
 */
export const chatEmailConfirmationsTable = table(
  "chat_email_confirmations",
  {
    id: id(),
    workspaceId: workspaceId(),
    contactId: text("contact_id").notNull(),
    ticketId: text("ticket_id").notNull(),
    email: text("email").notNull(),
    tokenHash: text("token_hash").notNull(),
    sentAt: timestamp("sent_at").notNull(),
    expiresAt: timestamp("expires_at").notNull(),
    confirmedAt: timestamp("confirmed_at"),
  },
  (t) => [
    uniqueIndex("chat_email_confirmations_token_unique").on(t.tokenHash),
    index("chat_email_confirmations_email_idx").on(t.workspaceId, t.email),
  ],
);
