import { index, integer, sqliteTable, text, uniqueIndex } from "drizzle-orm/sqlite-core";
import { json } from "../db/columns";

export const events = sqliteTable(
  "events",
  {
    id: text("id").primaryKey(),
    workspaceId: text("workspace_id").notNull(),
    seq: integer("seq").notNull(),
    type: text("type").notNull(),
    visibility: text("visibility", { enum: ["agents", "public"] }).notNull(),
    /** Set when the event concerns a private team: only those who see that team get it in full. */
    privateTeamId: text("private_team_id"),
    topics: json<string[]>("topics").notNull(),
    data: json<Record<string, unknown>>("data").notNull(),
    occurredAt: text("occurred_at").notNull(),
  },
  (t) => [
    uniqueIndex("events_workspace_seq_unique").on(t.workspaceId, t.seq),
    index("events_occurred_idx").on(t.occurredAt),
  ],
);
