import type { SqliteStatement as Statement } from "../db/sqlite/connection";
import type { Queryable } from "../db/database";
import { dialectStatements, inListSql } from "../db/dialect";
import { type PostgresQuery, postgresQuery } from "../db/postgres/query";
import { sqliteOf } from "../db/sqlite/prepared";
import { dbOf } from "../db/tx";
import { IMPORT_CAUSE } from "./consumer.define";
import type { StoredEventRow } from "./envelope";
import { eventWorkspaceCheckSql } from "./seq-counter";

/** A stored public event as the realtime gateway replays it to a visitor: topics and data as stored JSON. */
export type PublicEventRow = Omit<StoredEventRow, "private_team_id">;

/** A stored event as a consumer reads it: the row and the chain of reactions that caused it. */
export type ConsumedEventRow = StoredEventRow & { cause_consumer: string | null; cause_depth: number };

/** One event row to insert; `topics` and `data` already JSON. */
export type EventInsert = {
  id: string;
  workspaceId: string;
  seq: number;
  type: string;
  visibility: string;
  privateTeamId: string | null;
  topicsJson: string;
  dataJson: string;
  occurredAt: string;
  causeConsumer: string | null;
  causeDepth: number;
};

/** Where a consumer stands in a workspace: the workspace's counter and the consumer's cursor (0 when none). */
export type CursorPosition = { last_seq: number; cursor: number };

/** How far a consumer is behind: events past its cursors, and the occurred_at of the oldest waiting. */
export type StoredLag = { behind: number; oldest: string | null };

/**
 * The event store's statements: per-workspace seq allocation, the event insert, and consumer
 * cursors. PostgreSQL's twin takes the seq with `UPDATE event_seqs … RETURNING` (an insert only for
 * a new workspace) under the row lock, claims a cursor with `FOR UPDATE SKIP LOCKED` per (consumer,
 * workspace) so two processes never handle one workspace at once, binds type lists as arrays
 * (`= ANY($1)`), counts a handler's writes without SQLite's `total_changes()`, and finds a visitor's
 * topic with `topics @> jsonb_build_array($3)` instead of searching the JSON text with `instr`.
 *
 * The twin as it stands: the same counter upsert (held until commit, so a workspace's seqs commit
 * in order), cursors read and advanced as on SQLite, claimed per handled event (`claimCursor`, FOR
 * UPDATE SKIP LOCKED: nodes sharing the database never handle one event twice), a `pg_notify` per
 * workspace in each appending change (`notifyAppended`, src/events/feed.ts), type lists bound
 * as JSON text (`inListSql`), JSON written `?::text::jsonb` (Bun's client would encode a jsonb
 * parameter again), the handler's writes counted from `pg_stat_xact_user_tables` (this
 * transaction's rows inserted, updated and deleted), `topics @>` for a visitor's topic, and
 * `topics`/`data` read back as JSON text (`::text`) so callers parse them as on SQLite; cursors
 * (bigint) and sums cast to int.
 */
export interface EventStatements {
  /** Takes the workspace's next seq (its counter starts at 1), holding the counter row until commit. */
  nextSeq(workspaceId: string): Promise<number>;
  /** Whether the workspace exists (asked only when its counter has just started). */
  workspaceExists(workspaceId: string): Promise<boolean>;
  /** Drops a counter that has just started (at 1), for a workspace that turned out not to exist. */
  dropNewCounter(workspaceId: string): Promise<void>;
  /** Stores one event row. */
  insertEvent(row: EventInsert): Promise<void>;
  /** Registers a consumer; answers true only the first time (it then chooses where to start). */
  registerConsumer(name: string, at: string): Promise<boolean>;
  /** Puts a new consumer's cursor at each workspace's current last seq ("now"). */
  startConsumerAtNow(name: string, at: string): Promise<void>;
  /** Workspaces after `afterWorkspaceId` whose counter is past the consumer's cursor, in id order, a page. */
  workspacesBehind(consumer: string, afterWorkspaceId: string, limit: number): Promise<string[]>;
  /** Every workspace's counter. */
  counters(): Promise<Array<{ workspace_id: string; last_seq: number }>>;
  /** The occurred_at of the workspace's first event after `seq`, or null. */
  firstOccurredAfter(workspaceId: string, seq: number): Promise<string | null>;
  /** The workspace's counter and the consumer's cursor there; null when the workspace has no counter. */
  cursorPosition(consumer: string, workspaceId: string): Promise<CursorPosition | null>;
  /**
   * PostgreSQL (several nodes): takes the consumer's cursor row of the workspace for this change
   * (`FOR UPDATE SKIP LOCKED`, made at 0 when missing) and answers where it stands, or null when
   * another node's change holds it. SQLite (one process) never asks: it answers the cursor unlocked.
   */
  claimCursor(consumer: string, workspaceId: string, at: string): Promise<number | null>;
  /**
   * PostgreSQL: `pg_notify('desk_events', <workspace id>)` in the appending change, delivered to
   * every node's feed on commit (src/events/feed.ts). SQLite has no feed and never asks.
   */
  notifyAppended(workspaceId: string): Promise<void>;
  /** Moves the consumer's cursor to `seq`, never backwards. */
  advanceCursor(consumer: string, workspaceId: string, seq: number, at: string): Promise<void>;
  /** A count of rows changed on this connection so far: equal before and after means nothing was written. */
  changeCount(): Promise<number>;
  /** Events of these types with seq in (`after`, `upTo`], in seq order, imported ones left out. */
  eventsAfter(
    workspaceId: string,
    after: number,
    upTo: number,
    types: readonly string[],
    limit: number,
  ): Promise<ConsumedEventRow[]>;
  /** The registered consumers' names, in name order. */
  consumerNames(): Promise<string[]>;
  /** A consumer's lag from its stored cursors, over every workspace. */
  storedLag(consumer: string): Promise<StoredLag | null>;
  /** The workspace's events after `since`, in seq order, at most `limit` (the replay of GET /v1/events and sockets). */
  eventsSince(workspaceId: string, since: number, limit: number): Promise<StoredEventRow[]>;
  /** The workspace's public events after `since` that went to `topic`, in seq order, at most `limit` (a visitor's replay). */
  publicEventsSince(workspaceId: string, since: number, topic: string, limit: number): Promise<PublicEventRow[]>;
}

/** Lists are bound as JSON; a list kept by its caller (a consumer's types) is written once. */
const jsonOfList = new WeakMap<readonly string[], string>();
const jsonList = (values: readonly string[]): string => {
  let json = jsonOfList.get(values);
  if (json === undefined) {
    json = JSON.stringify(values);
    jsonOfList.set(values, json);
  }
  return json;
};

// The SQL both engines run as written (SQLite's planner hint `+?` is read as `?` on PostgreSQL).
const NEXT_SEQ =
  "INSERT INTO event_seqs (workspace_id, last_seq) VALUES (?, 1) ON CONFLICT (workspace_id) DO UPDATE SET last_seq = event_seqs.last_seq + 1 RETURNING last_seq";
const DROP_COUNTER = "DELETE FROM event_seqs WHERE workspace_id = ? AND last_seq = 1";
const REGISTER =
  "INSERT INTO event_consumers (name, last_rowid, updated_at) VALUES (?, 0, ?) ON CONFLICT (name) DO NOTHING RETURNING name";
const START_AT_NOW = `INSERT INTO event_consumer_cursors (consumer, workspace_id, last_seq, updated_at)
     SELECT ?, workspace_id, last_seq, ? FROM event_seqs WHERE last_seq > 0
     ON CONFLICT (consumer, workspace_id) DO NOTHING`;
// The truth about where work waits: workspaces whose counter is past the consumer's cursor.
const BEHIND = `SELECT s.workspace_id FROM event_seqs s
     LEFT JOIN event_consumer_cursors c ON c.consumer = ? AND c.workspace_id = s.workspace_id
     WHERE s.workspace_id > ? AND s.last_seq > coalesce(c.last_seq, 0) ORDER BY s.workspace_id LIMIT ?`;
const COUNTERS = "SELECT workspace_id, last_seq FROM event_seqs";
const FIRST_AFTER = "SELECT occurred_at FROM events WHERE workspace_id = ? AND seq > ? ORDER BY seq LIMIT 1";
// Never backwards: a cursor only moves past what was handled or passed over.
const ADVANCE = `INSERT INTO event_consumer_cursors (consumer, workspace_id, last_seq, updated_at) VALUES (?, ?, ?, ?)
     ON CONFLICT (consumer, workspace_id) DO UPDATE SET last_seq = excluded.last_seq, updated_at = excluded.updated_at
     WHERE excluded.last_seq > event_consumer_cursors.last_seq`;
const NOT_IMPORTED = `(cause_consumer IS NULL OR cause_consumer != '${IMPORT_CAUSE}')`;

/**
 * SQLite: the statements prepared once per connection. The counter upsert holds the workspace's row
 * (the database's one writer) until commit, so seqs are contiguous and committed in seq order.
 */
/** The SQLite statements behind EventStatements, prepared once per connection. */
function prepareEventQueries(db: Queryable) {
  const sqlite = sqliteOf(db);
  const nextSeq = sqlite.query<{ last_seq: number }, [string]>(NEXT_SEQ);
  const dropCounter = sqlite.query<unknown, [string]>(DROP_COUNTER);
  const insert = sqlite.query<
    unknown,
    [string, string, number, string, string, string | null, string, string, string, string | null, number]
  >(
    "INSERT INTO events (id, workspace_id, seq, type, visibility, private_team_id, topics, data, occurred_at, cause_consumer, cause_depth) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
  );
  const register = sqlite.query<{ name: string }, [string, string]>(REGISTER);
  const startAtNow = sqlite.query<unknown, [string, string]>(START_AT_NOW);
  const behind = sqlite.query<{ workspace_id: string }, [string, string, number]>(BEHIND);
  const counters = sqlite.query<{ workspace_id: string; last_seq: number }, []>(COUNTERS);
  const firstAfter = sqlite.query<{ occurred_at: string }, [string, number]>(FIRST_AFTER);
  const position = sqlite.query<CursorPosition, [string, string]>(
    `SELECT s.last_seq, coalesce(c.last_seq, 0) AS cursor FROM event_seqs s
     LEFT JOIN event_consumer_cursors c ON c.consumer = ? AND c.workspace_id = s.workspace_id
     WHERE s.workspace_id = ?`,
  );
  const advance = sqlite.query<unknown, [string, string, number, string]>(ADVANCE);
  const totalChanges = sqlite.query<{ n: number }, []>("SELECT total_changes() AS n");
  const after = sqlite.query<ConsumedEventRow, [string, number, number, string, number]>(
    `SELECT id, seq, workspace_id, type, visibility, private_team_id, topics, data, occurred_at, cause_consumer, cause_depth
     FROM events WHERE workspace_id = ? AND seq > ? AND seq <= ? AND type IN (SELECT value FROM json_each(?))
       AND ${NOT_IMPORTED} ORDER BY seq LIMIT ?`,
  );
  const names = sqlite.query<{ name: string }, []>("SELECT name FROM event_consumers ORDER BY name");
  // Per lagging workspace: how far behind, and the first event past the cursor (the oldest waiting).
  const lag = sqlite.query<StoredLag, [string]>(
    `SELECT coalesce(sum(s.last_seq - coalesce(c.last_seq, 0)), 0) AS behind,
       min((SELECT e.occurred_at FROM events e WHERE e.workspace_id = s.workspace_id AND e.seq > coalesce(c.last_seq, 0)
            ORDER BY e.seq LIMIT 1)) AS oldest
     FROM event_seqs s LEFT JOIN event_consumer_cursors c ON c.consumer = ? AND c.workspace_id = s.workspace_id
     WHERE s.last_seq > coalesce(c.last_seq, 0)`,
  );
  const since = sqlite.query<StoredEventRow, [string, number, number]>(
    "SELECT id, seq, workspace_id, type, visibility, private_team_id, topics, data, occurred_at FROM events WHERE workspace_id = ? AND seq > ? ORDER BY seq LIMIT ?",
  );
  // A topic is found in the stored JSON text (its quoted form), then checked exactly by the caller.
  const publicSince = sqlite.query<PublicEventRow, [string, number, string, number]>(
    "SELECT id, seq, workspace_id, type, visibility, topics, data, occurred_at FROM events WHERE workspace_id = ? AND seq > ? AND visibility = 'public' AND instr(topics, ?) > 0 ORDER BY seq LIMIT ?",
  );
  return {
    since,
    publicSince,
    nextSeq,
    dropCounter,
    insert,
    register,
    startAtNow,
    behind,
    counters,
    firstAfter,
    position,
    advance,
    totalChanges,
    after,
    names,
    lag,
  };
}

const sqliteEventStatements = (db: Queryable): EventStatements => {
  const q = prepareEventQueries(db);
  const sqlite = sqliteOf(db);
  // Prepared on first use: its SQL is the owner's, given to the desk at start (buildDeps).
  let workspaceExists: Statement<unknown, [string]> | null = null;
  return {
    nextSeq: async (workspaceId) => q.nextSeq.get(workspaceId)!.last_seq,
    workspaceExists: async (workspaceId) => {
      workspaceExists ??= sqlite.query<unknown, [string]>(eventWorkspaceCheckSql(dbOf(db)));
      return Boolean(workspaceExists.get(workspaceId));
    },
    dropNewCounter: async (workspaceId) => {
      q.dropCounter.run(workspaceId);
    },
    insertEvent: async (row) => {
      q.insert.run(
        row.id,
        row.workspaceId,
        row.seq,
        row.type,
        row.visibility,
        row.privateTeamId,
        row.topicsJson,
        row.dataJson,
        row.occurredAt,
        row.causeConsumer,
        row.causeDepth,
      );
    },
    registerConsumer: async (name, at) => Boolean(q.register.get(name, at)),
    startConsumerAtNow: async (name, at) => {
      q.startAtNow.run(name, at);
    },
    workspacesBehind: async (consumer, afterWorkspaceId, limit) =>
      q.behind.all(consumer, afterWorkspaceId, limit).map((r) => r.workspace_id),
    counters: async () => q.counters.all(),
    firstOccurredAfter: async (workspaceId, seq) => q.firstAfter.get(workspaceId, seq)?.occurred_at ?? null,
    cursorPosition: async (consumer, workspaceId) => q.position.get(consumer, workspaceId) ?? null,
    claimCursor: async (consumer, workspaceId) =>
      sqlite
        .query<{ cursor: number }, [string, string]>(
          "SELECT last_seq AS cursor FROM event_consumer_cursors WHERE consumer = ? AND workspace_id = ?",
        )
        .get(consumer, workspaceId)?.cursor ?? 0,
    notifyAppended: async () => {},
    advanceCursor: async (consumer, workspaceId, seq, at) => {
      q.advance.run(consumer, workspaceId, seq, at);
    },
    changeCount: async () => q.totalChanges.get()!.n,
    eventsAfter: async (workspaceId, afterSeq, upTo, types, limit) =>
      q.after.all(workspaceId, afterSeq, upTo, jsonList(types), limit),
    consumerNames: async () => q.names.all().map((r) => r.name),
    storedLag: async (consumer) => q.lag.get(consumer) ?? null,
    eventsSince: async (workspaceId, since, limit) => q.since.all(workspaceId, since, limit),
    publicEventsSince: async (workspaceId, since, topic, limit) =>
      q.publicSince.all(workspaceId, since, JSON.stringify(topic), limit),
  };
};

const EVENT_COLUMNS_PG =
  "id, seq, workspace_id, type, visibility, private_team_id, topics::text AS topics, data::text AS data, occurred_at";

/** PostgreSQL: the same statements with `?` placeholders, run in the calling change's transaction. */
const postgresEventStatements = (db: Queryable): EventStatements => {
  const nextSeq = postgresQuery<{ last_seq: number }, [string]>(db, NEXT_SEQ);
  const dropCounter = postgresQuery<unknown, [string]>(db, DROP_COUNTER);
  const insert = postgresQuery<
    unknown,
    [string, string, number, string, string, string | null, string, string, string, string | null, number]
  >(
    db,
    "INSERT INTO events (id, workspace_id, seq, type, visibility, private_team_id, topics, data, occurred_at, cause_consumer, cause_depth) VALUES (?, ?, ?, ?, ?, ?, ?::text::jsonb, ?::text::jsonb, ?, ?, ?)",
  );
  const register = postgresQuery<{ name: string }, [string, string]>(db, REGISTER);
  const startAtNow = postgresQuery<unknown, [string, string]>(db, START_AT_NOW);
  const behind = postgresQuery<{ workspace_id: string }, [string, string, number]>(db, BEHIND);
  const counters = postgresQuery<{ workspace_id: string; last_seq: number }, []>(db, COUNTERS);
  const firstAfter = postgresQuery<{ occurred_at: string }, [string, number]>(db, FIRST_AFTER);
  // Cursors are bigint on PostgreSQL: read as int, as seqs are.
  const position = postgresQuery<CursorPosition, [string, string]>(
    db,
    `SELECT s.last_seq, coalesce(c.last_seq, 0)::int AS cursor FROM event_seqs s
     LEFT JOIN event_consumer_cursors c ON c.consumer = ? AND c.workspace_id = s.workspace_id
     WHERE s.workspace_id = ?`,
  );
  const advance = postgresQuery<unknown, [string, string, number, string]>(db, ADVANCE);
  // The claim: a row another node's change holds is passed over, not waited for.
  const claim = postgresQuery<{ cursor: number }, [string, string]>(
    db,
    "SELECT last_seq::int AS cursor FROM event_consumer_cursors WHERE consumer = ? AND workspace_id = ? FOR UPDATE SKIP LOCKED",
  );
  const cursorExists = postgresQuery<unknown, [string, string]>(
    db,
    "SELECT 1 FROM event_consumer_cursors WHERE consumer = ? AND workspace_id = ?",
  );
  // A new row is the inserting change's until it commits; a concurrent insert leaves nothing to claim.
  const newCursor = postgresQuery<{ cursor: number }, [string, string, string]>(
    db,
    `INSERT INTO event_consumer_cursors (consumer, workspace_id, last_seq, updated_at) VALUES (?, ?, 0, ?)
     ON CONFLICT (consumer, workspace_id) DO NOTHING RETURNING last_seq::int AS cursor`,
  );
  const notify = postgresQuery<unknown, [string]>(db, "SELECT pg_notify('desk_events', ?::text)");
  // This transaction's rows written so far, every table (SQLite's total_changes() of the connection).
  const changes = postgresQuery<{ n: number }, []>(
    db,
    "SELECT coalesce(sum(n_tup_ins + n_tup_upd + n_tup_del), 0)::int AS n FROM pg_stat_xact_user_tables",
  );
  const after = postgresQuery<ConsumedEventRow, [string, number, number, string, number]>(
    db,
    `SELECT ${EVENT_COLUMNS_PG}, cause_consumer, cause_depth
     FROM events WHERE workspace_id = ? AND seq > ? AND seq <= ? AND ${inListSql("type", "postgres")}
       AND ${NOT_IMPORTED} ORDER BY seq LIMIT ?`,
  );
  let workspaceExists: PostgresQuery<unknown, [string]> | null = null;
  return {
    nextSeq: async (workspaceId) => (await nextSeq.get(workspaceId))!.last_seq,
    workspaceExists: async (workspaceId) => {
      workspaceExists ??= postgresQuery<unknown, [string]>(db, eventWorkspaceCheckSql(dbOf(db)));
      return Boolean(await workspaceExists.get(workspaceId));
    },
    dropNewCounter: (workspaceId) => dropCounter.run(workspaceId),
    insertEvent: (row) =>
      insert.run(
        row.id,
        row.workspaceId,
        row.seq,
        row.type,
        row.visibility,
        row.privateTeamId,
        row.topicsJson,
        row.dataJson,
        row.occurredAt,
        row.causeConsumer,
        row.causeDepth,
      ),
    registerConsumer: async (name, at) => Boolean(await register.get(name, at)),
    startConsumerAtNow: (name, at) => startAtNow.run(name, at),
    workspacesBehind: async (consumer, afterWorkspaceId, limit) =>
      (await behind.all(consumer, afterWorkspaceId, limit)).map((r) => r.workspace_id),
    counters: () => counters.all(),
    firstOccurredAfter: async (workspaceId, seq) => (await firstAfter.get(workspaceId, seq))?.occurred_at ?? null,
    cursorPosition: (consumer, workspaceId) => position.get(consumer, workspaceId),
    claimCursor: async (consumer, workspaceId, at) => {
      const held = await claim.get(consumer, workspaceId);
      if (held) return held.cursor;
      if (await cursorExists.get(consumer, workspaceId)) return null;
      return (await newCursor.get(consumer, workspaceId, at))?.cursor ?? null;
    },
    notifyAppended: (workspaceId) => notify.run(workspaceId),
    advanceCursor: (consumer, workspaceId, seq, at) => advance.run(consumer, workspaceId, seq, at),
    changeCount: async () => (await changes.get())!.n,
    eventsAfter: (workspaceId, afterSeq, upTo, types, limit) =>
      after.all(workspaceId, afterSeq, upTo, jsonList(types), limit),
    ...postgresEventReads(db),
  };
};

type EventReads = Pick<EventStatements, "consumerNames" | "storedLag" | "eventsSince" | "publicEventsSince">;

/** PostgreSQL: the reads of the consumers' lag and of a replay (GET /v1/events, a socket's `since`). */
const postgresEventReads = (db: Queryable): EventReads => {
  // Byte order, as SQLite's BINARY collation sorts.
  const names = postgresQuery<{ name: string }, []>(db, 'SELECT name FROM event_consumers ORDER BY name COLLATE "C"');
  const lag = postgresQuery<StoredLag, [string]>(
    db,
    `SELECT coalesce(sum(s.last_seq - coalesce(c.last_seq, 0)), 0)::int AS behind,
       min((SELECT e.occurred_at FROM events e WHERE e.workspace_id = s.workspace_id AND e.seq > coalesce(c.last_seq, 0)
            ORDER BY e.seq LIMIT 1)) AS oldest
     FROM event_seqs s LEFT JOIN event_consumer_cursors c ON c.consumer = ? AND c.workspace_id = s.workspace_id
     WHERE s.last_seq > coalesce(c.last_seq, 0)`,
  );
  const since = postgresQuery<StoredEventRow, [string, number, number]>(
    db,
    `SELECT ${EVENT_COLUMNS_PG} FROM events WHERE workspace_id = ? AND seq > ? ORDER BY seq LIMIT ?`,
  );
  // The topic as a jsonb containment test (the caller still checks it exactly, as on SQLite).
  const publicSince = postgresQuery<PublicEventRow, [string, number, string, number]>(
    db,
    `SELECT id, seq, workspace_id, type, visibility, topics::text AS topics, data::text AS data, occurred_at FROM events
     WHERE workspace_id = ? AND seq > ? AND visibility = 'public' AND topics @> jsonb_build_array(?::text)
     ORDER BY seq LIMIT ?`,
  );
  return {
    consumerNames: async () => (await names.all()).map((r) => r.name),
    storedLag: (consumer) => lag.get(consumer),
    eventsSince: (workspaceId, since_, limit) => since.all(workspaceId, since_, limit),
    publicEventsSince: (workspaceId, since_, topic, limit) => publicSince.all(workspaceId, since_, topic, limit),
  };
};

export const eventStatements = dialectStatements<EventStatements>({
  sqlite: sqliteEventStatements,
  postgres: postgresEventStatements,
});
