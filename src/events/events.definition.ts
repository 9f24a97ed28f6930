import { index, integer, json, table, text, uniqueIndex } from "../db/schema-kit";

// Each table declared once with the schema kit (src/db/schema-kit.ts): events.table.ts builds it for
// SQLite (queries, types, migrations), events.table.pg.ts for PostgreSQL.

export const eventsTable = table(
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
 * Each workspace's last allocated event seq, the event store's own counter: one row per workspace,
 * `INSERT … ON CONFLICT DO UPDATE … RETURNING` in the event's transaction. Holding that row until
 * commit is what keeps a workspace's seqs contiguous and committed in seq order once several
 * writers share the database; consumers compare it with their cursors to find work.
 */
export const eventSeqsTable = table("event_seqs", {
  workspaceId: text("workspace_id").primaryKey(),
  lastSeq: integer("last_seq").notNull(),
});

/**
 * The durable consumers this desk has seen (a consumer seen for the first time starts at "now" or
 * at "beginning"). `last_rowid` is the global rowid cursor of releases before per-workspace cursors:
 * the migration that made `event_consumer_cursors` read it once; nothing reads it since (0 for a
 * consumer registered later), and a later migration drops it.
 */
export const eventConsumersTable = table("event_consumers", {
  name: text("name").primaryKey(),
  lastRowid: integer("last_rowid").notNull(),
  updatedAt: text("updated_at").notNull(),
});

/*
 * Each consumer's position per workspace, `event_consumer_cursors (workspace_id, consumer, last_seq,
 * updated_at)`, is created by migrations/custom/0140_consumer_cursors.sql: WITHOUT ROWID, keyed by
 * workspace first, so an event's advances of every consumer's cursor land on one page of the WAL
 * instead of one page per consumer. A workspace with no row is at 0 (all its events are new to the
 * consumer). Seqs are contiguous and committed in order within a workspace, unlike rowids across
 * writers, so a cursor never passes an event that a slower transaction commits later.
 */
