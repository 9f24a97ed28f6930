import { createdAt, id, integer, json, table, text, timestamp, uniqueIndex, updatedAt } from "../db/schema-kit";

export const workspacesTable = table(
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
    /**
     * The last event seq of releases that counted here; the event store's `event_seqs` counts now
     * (seeded from this by its migration). Nothing reads or writes it since; a later migration drops it.
     */
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
