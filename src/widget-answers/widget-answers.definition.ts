import { createdAt, primaryKey, table, text, workspaceId } from "../db/schema-kit";

/** The months whose widget cap was reached and announced (`ai_cap_reached` goes out once per month). */
export const widgetCapNoticesTable = table(
  "widget_cap_notices",
  {
    workspaceId: workspaceId(),
    /** UTC calendar month, `YYYY-MM`. */
    month: text("month").notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey(t.workspaceId, t.month)],
);

/** Conversations handed to people: the AI agent stays quiet in them from then on. */
export const widgetHandoffsTable = table(
  "widget_handoffs",
  {
    workspaceId: workspaceId(),
    ticketId: text("ticket_id").notNull(),
    /** Why: requested, not_known, low_confidence, no_articles, provider_error. */
    reason: text("reason").notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey(t.workspaceId, t.ticketId)],
);

/** Per person: the last handoff mailed to them (at most one mail per HANDOFF_MAIL_EVERY_MS; the rest stay in the app). */
export const widgetHandoffMailsTable = table(
  "widget_handoff_mails",
  {
    workspaceId: workspaceId(),
    userId: text("user_id").notNull(),
    mailedAt: text("mailed_at").notNull(),
  },
  (t) => [primaryKey(t.workspaceId, t.userId)],
);
