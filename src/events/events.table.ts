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
    /** The consumer whose reaction appended this event (null: a person, key, door or job). */
    causeConsumer: text("cause_consumer"),
    /** How many consumer reactions led to this event (0 for direct changes): bounds loops. */
    causeDepth: integer("cause_depth").notNull().default(0),
  },
  (t) => [
    uniqueIndex("events_workspace_seq_unique").on(t.workspaceId, t.seq),
    index("events_occurred_idx").on(t.occurredAt),
  ],
);

/**
 * Each durable consumer's cursor: the rowid of the last event it has handled. `events` rowids grow
 * with every insert on Desk's one connection, so they are the global order of stored events.
 */
export const eventConsumers = sqliteTable("event_consumers", {
  name: text("name").primaryKey(),
  lastRowid: integer("last_rowid").notNull(),
  updatedAt: text("updated_at").notNull(),
});
