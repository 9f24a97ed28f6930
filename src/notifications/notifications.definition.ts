import { createdAt, id, index, json, primaryKey, table, text, timestamp, workspaceId } from "../db/schema-kit";

export type NotificationTicketRef = { id: string; number: number; subject: string };

/** One row per person told something; `ticket` is the reference as it was when they were told. */
export const notificationsTable = table(
  "notifications",
  {
    id: id(),
    workspaceId: workspaceId(),
    userId: text("user_id").notNull(),
    type: text("type").notNull(),
    ticket: json<NotificationTicketRef>("ticket"),
    data: json<Record<string, unknown>>("data").notNull(),
    readAt: timestamp("read_at"),
    /** When it went out by email (at once or in a digest); null while not mailed. */
    emailedAt: timestamp("emailed_at"),
    createdAt: createdAt(),
  },
  (t) => [index("notifications_user_idx").on(t.workspaceId, t.userId, t.id)],
);

export const EMAIL_PREFERENCES = ["immediately", "digest", "off"] as const;
export type EmailPreference = (typeof EMAIL_PREFERENCES)[number];

/** A member's notification settings in one workspace; no row = the defaults (email immediately). */
export const notificationPreferencesTable = table(
  "notification_preferences",
  {
    workspaceId: workspaceId(),
    userId: text("user_id").notNull(),
    email: text("email", { enum: EMAIL_PREFERENCES }).notNull(),
    /** The last daily digest sent (it gathers what came after). */
    digestSentAt: timestamp("digest_sent_at"),
    updatedAt: text("updated_at").notNull(),
  },
  (t) => [primaryKey(t.workspaceId, t.userId)],
);
