import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { createdAt, id, json, timestamp, updatedAt } from "../db/columns";

export const workspaces = sqliteTable(
  "workspaces",
  {
    id: id(),
    name: text("name").notNull(),
    slug: text("slug").notNull(),
    widgetKey: text("widget_key").notNull(),
    widgetSecretSealed: text("widget_secret_sealed"),
    settings: json<Record<string, unknown>>("settings").notNull().default({}),
    avatarUrl: text("avatar_url"),
    images: json<Record<string, string | null>>("images").notNull().default({}),
    /** Last allocated event seq; incremented inside each event's transaction. */
    eventSeq: integer("event_seq").notNull().default(0),
    ticketNumberSeq: integer("ticket_number_seq").notNull().default(0),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    deletedAt: timestamp("deleted_at"),
  },
  (t) => [
    uniqueIndex("workspaces_slug_unique").on(t.slug),
    uniqueIndex("workspaces_widget_key_unique").on(t.widgetKey),
  ],
);

export const members = sqliteTable(
  "members",
  {
    workspaceId: text("workspace_id")
      .notNull()
      .references(() => workspaces.id, { onDelete: "cascade" }),
    userId: text("user_id").notNull(),
    role: text("role", { enum: ["owner", "admin", "agent", "viewer"] }).notNull(),
    availability: text("availability", { enum: ["online", "away", "offline"] })
      .notNull()
      .default("online"),
    maxOpenTickets: integer("max_open_tickets"),
    lastSeenAt: timestamp("last_seen_at"),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.workspaceId, t.userId] }), index("members_user_idx").on(t.userId)],
);
