import type { Db, Tx } from "../db/database";
import { deskState } from "../db/desk-state";
import { preparedFor } from "../db/prepared";
import { withTx } from "../db/tx";
import type { Clock } from "../lib/clock";
import type { Logger } from "../lib/logger";
import { onEventsCommitted } from "./bus";
import { withEventCause } from "./cause";
import type { StoredEvent } from "./envelope";

/**
 * A reaction chain longer than this stops: an event appended by the third consumer reaction in a
 * row is stored and published, but no consumer handles it. It bounds A → B → A loops and a consumer
 * reacting to its own effects, while leaving room for one automation to trigger another.
 */
export const MAX_CAUSE_DEPTH = 3;

/**
 * The cause stamped on events of another desk's history (src/imports): they are stored and
 * published (webhooks, search staging, sockets) but no consumer handles them, so no automation,
 * CSAT survey, notification, SLA clock or assignment acts on what happened elsewhere long ago.
 */
const IMPORT_CAUSE = "import";

/** Runs `fn` so that the events it appends reach no consumer (see IMPORT_CAUSE). */
export const withoutReactions = <T>(fn: () => T): T => withEventCause({ consumer: IMPORT_CAUSE, depth: 0 }, fn);

/** What a handler knows besides the event: its dependencies and where the event came from. */
export type ConsumerContext<D> = {
  deps: D;
  /** The consumer whose reaction appended this event, or null for a direct change. */
  causedBy: string | null;
  /** How many consumer reactions led to this event (0 for a direct change). */
  depth: number;
};

export type Consumer<D> = {
  /** Names the cursor: renaming a consumer starts it afresh at the newest event. */
  name: string;
  /** The event types it handles; others advance its cursor untouched. */
  types: readonly string[];
  /**
   * Where a consumer seen for the first time starts: after the newest stored event (default: it
   * reacts to what happens from now on) or at the oldest retained one (it catches up first).
   */
  from?: "now" | "beginning";
  /**
   * Runs inside the transaction that advances the cursor, so its changes and the cursor commit
   * together: a crash loses neither and repeats neither. Synchronous like every `withTx`; work
   * outside the database goes to a job enqueued here.
   */
  handle(tx: Tx, event: StoredEvent, context: ConsumerContext<D>): void;
  /**
   * When the consumer has nothing to do for a whole workspace (no rule, no policy, the feature
   * off): its events are then passed over without a transaction, a parse or a handler call, and the
   * cursor moves once per batch. `when` is asked once per workspace and the answer cached until an
   * event of a `changedBy` type arrives for that workspace, or until the owner calls
   * `reactionStateChanged` (state that changes without an event of its own). Only a precise answer
   * belongs here: a quiet workspace's events are never handled, even later.
   */
  quiet?: { when(deps: D, workspaceId: string): boolean; changedBy: readonly string[] };
};

export function defineConsumer<D>(consumer: Consumer<D>): Consumer<D> {
  return consumer;
}

export type ConsumerRunner = {
  start(): void;
  stop(): Promise<void>;
  /** Handles every stored event each consumer has not yet handled (tests call it). */
  drain(): Promise<number>;
  wake(): void;
  /** Per consumer since start: events handled, passed over (quiet or only read for `changedBy`), ms spent. */
  stats(): ConsumerTally[];
};

export type ConsumerTally = { name: string; handled: number; skipped: number; ms: number };

export type ConsumerLag = {
  name: string;
  /** Stored events after its cursor (of any type: the ones it does not handle cost a scan too). */
  eventsBehind: number;
  /** How long the oldest event after its cursor has waited (0 when it is caught up). */
  secondsBehind: number;
};

const lagStatementsOf = preparedFor((sqlite) => ({
  cursors: sqlite.query<{ name: string; last_rowid: number }, []>(
    "SELECT name, last_rowid FROM event_consumers ORDER BY name",
  ),
  newest: sqlite.query<{ rowid: number | null }, []>("SELECT max(rowid) AS rowid FROM events"),
  next: sqlite.query<{ occurred_at: string }, [number]>(
    "SELECT occurred_at FROM events WHERE rowid > ? ORDER BY rowid LIMIT 1",
  ),
}));

/**
 * How far each consumer's cursor is behind the event log, read from the stored cursors (so it
 * counts what a stopped or crashed runner left too). Rowids are contiguous in practice (events are
 * never deleted out of order), so the difference is the count without scanning the log.
 */
export function consumerLag(db: Db, now: Date, names?: readonly string[]): ConsumerLag[] {
  const statements = lagStatementsOf(db);
  const newest = statements.newest.get()?.rowid ?? 0;
  // By default the consumers a runner of this desk was built with: a cursor a removed consumer
  // left behind would otherwise show a lag that grows forever.
  const running = runningNamesOf(db);
  const wanted = names ? new Set(names) : running.size > 0 ? running : null;
  return statements.cursors
    .all()
    .filter((c) => !wanted || wanted.has(c.name))
    .map((c) => {
      const behind = Math.max(0, newest - c.last_rowid);
      const oldest = behind > 0 ? statements.next.get(c.last_rowid)?.occurred_at : undefined;
      const waited = oldest ? (now.getTime() - Date.parse(oldest)) / 1000 : 0;
      return { name: c.name, eventsBehind: behind, secondsBehind: Math.max(0, waited) };
    });
}

export type ConsumerRunnerOptions<D> = {
  db: Db;
  logger: Logger;
  clock: Clock;
  deps: D;
  consumers: Consumer<D>[];
  /** How often consumers look for events when no commit woke them (default 5 s). */
  pollMs?: number;
  /** Events each consumer handles per turn before yielding to requests (default 100). */
  batch?: number;
};

type EventRow = {
  rowid: number;
  id: string;
  seq: number;
  workspace_id: string;
  type: string;
  visibility: StoredEvent["visibility"];
  private_team_id: string | null;
  topics: string;
  data: string;
  occurred_at: string;
  cause_consumer: string | null;
  cause_depth: number;
};

const statementsOf = preparedFor((sqlite) => ({
  cursor: sqlite.query<{ last_rowid: number }, [string]>("SELECT last_rowid FROM event_consumers WHERE name = ?"),
  newest: sqlite.query<{ rowid: number | null }, []>("SELECT max(rowid) AS rowid FROM events"),
  create: sqlite.query<unknown, [string, number, string]>(
    "INSERT OR IGNORE INTO event_consumers (name, last_rowid, updated_at) VALUES (?, ?, ?)",
  ),
  advance: sqlite.query<unknown, [number, string, string]>(
    "UPDATE event_consumers SET last_rowid = ?, updated_at = ? WHERE name = ?",
  ),
  after: sqlite.query<EventRow, [number, number, string, number]>(
    `SELECT rowid, id, seq, workspace_id, type, visibility, private_team_id, topics, data, occurred_at, cause_consumer, cause_depth
     FROM events WHERE rowid > ? AND rowid <= ? AND type IN (SELECT value FROM json_each(?))
       AND (cause_consumer IS NULL OR cause_consumer != '${IMPORT_CAUSE}') ORDER BY rowid LIMIT ?`,
  ),
}));

/**
 * Each consumer's cached "nothing to do" answers, per workspace. Bounded: past this many workspaces
 * a consumer's answers are dropped and asked again, which costs one `when` call each.
 */
const MAX_QUIET_ENTRIES = 10_000;
const runningNamesOf = deskState("events.consumer-names", () => new Set<string>());
const quietCacheOf = deskState("events.quiet-workspaces", () => new Map<string, Map<string, boolean>>());

/**
 * Forgets every consumer's cached answer for a workspace: for a change to what `quiet.when` reads
 * that appends no event of its own (call it in the change's transaction).
 */
export function reactionStateChanged(db: Db, workspaceId: string): void {
  for (const answers of quietCacheOf(db).values()) answers.delete(workspaceId);
}

const eventOf = (row: EventRow): StoredEvent => ({
  id: row.id,
  seq: row.seq,
  workspace_id: row.workspace_id,
  type: row.type,
  visibility: row.visibility,
  topics: JSON.parse(row.topics) as string[],
  data: JSON.parse(row.data) as Record<string, unknown>,
  occurred_at: row.occurred_at,
  private_team_id: row.private_team_id,
});

/** A failing event is retried after these waits; then it is skipped (logged) so the consumer moves on. */
const RETRY_DELAYS_MS = [1_000, 5_000, 30_000, 120_000];

/**
 * Durable event consumers: each reads stored events in rowid order from its own cursor (a row of
 * `event_consumers`), handling each event in one savepoint with the cursor's advance. Woken after
 * every commit that stored events and by a timer.
 */
export function createConsumerRunner<D>(options: ConsumerRunnerOptions<D>): ConsumerRunner {
  const { db, logger, clock, deps, consumers } = options;
  const pollMs = options.pollMs ?? 5_000;
  const batch = options.batch ?? 100;
  // A consumer also reads the types that change its quiet answer, to forget that answer in order.
  const typesOf = new Map(
    consumers.map((c) => [c.name, JSON.stringify([...new Set([...c.types, ...(c.quiet?.changedBy ?? [])])])]),
  );
  const handledTypes = new Map(consumers.map((c) => [c.name, new Set(c.types)]));
  const changingTypes = new Map(consumers.map((c) => [c.name, new Set(c.quiet?.changedBy ?? [])]));
  const quietCache = quietCacheOf(db);
  for (const consumer of consumers) runningNamesOf(db).add(consumer.name);
  /** Whether the consumer may pass over this workspace's events (see Consumer.quiet). */
  function isQuiet(consumer: Consumer<D>, workspaceId: string): boolean {
    if (!consumer.quiet) return false;
    let answers = quietCache.get(consumer.name);
    if (!answers) {
      answers = new Map();
      quietCache.set(consumer.name, answers);
    }
    let quiet = answers.get(workspaceId);
    if (quiet === undefined) {
      quiet = consumer.quiet.when(deps, workspaceId);
      if (answers.size >= MAX_QUIET_ENTRIES) answers.clear();
      answers.set(workspaceId, quiet);
    }
    return quiet;
  }
  /** Per consumer: events handled, passed over as quiet, and the time spent (the System page and /metrics). */
  const tallies = new Map(consumers.map((c) => [c.name, { handled: 0, skipped: 0, ms: 0 }]));
  /** Per consumer: failures of the event at its cursor, and when it may try again. */
  const failures = new Map<string, { rowid: number; count: number; retryAt: number }>();
  let started = false;
  let timer: ReturnType<typeof setTimeout> | null = null;
  let wakeQueued = false;
  let running: Promise<number> | null = null;
  let unsubscribe: (() => void) | null = null;

  function ensureCursors(): void {
    const statements = statementsOf(db);
    withTx(db, () => {
      const newest = statements.newest.get()?.rowid ?? 0;
      for (const consumer of consumers)
        statements.create.run(consumer.name, consumer.from === "beginning" ? 0 : newest, clock.now().toISOString());
    });
  }

  /** Handles up to `batch` events of one consumer; returns how many it handled and whether more wait. */
  function step(consumer: Consumer<D>): { handled: number; more: boolean } {
    const statements = statementsOf(db);
    const failure = failures.get(consumer.name);
    if (failure && failure.retryAt > clock.now().getTime()) return { handled: 0, more: false };
    const from = statements.cursor.get(consumer.name)?.last_rowid ?? 0;
    // Everything up to the newest stored event is committed (transactions are synchronous in this
    // process), so a scan that finds fewer than `batch` matches may move the cursor to it: the next
    // scan starts there instead of re-reading every unrelated event since the last match.
    const upTo = statements.newest.get()?.rowid ?? 0;
    const rows = statements.after.all(from, upTo, typesOf.get(consumer.name) ?? "[]", batch);
    const handles = handledTypes.get(consumer.name)!;
    const changing = changingTypes.get(consumer.name)!;
    const tally = tallies.get(consumer.name)!;
    const started = performance.now();
    let handled = 0;
    let skipped = 0;
    for (const row of rows) {
      if (changing.has(row.type)) quietCache.get(consumer.name)?.delete(row.workspace_id);
      // Passed over events need no transaction: the cursor moves past them with the next handled
      // event or at the end of the batch, and re-reading them after a crash does nothing either.
      if (!handles.has(row.type) || isQuiet(consumer, row.workspace_id)) {
        skipped++;
        continue;
      }
      const at = clock.now().toISOString();
      if (row.cause_depth >= MAX_CAUSE_DEPTH) {
        logger.warn(
          { consumer: consumer.name, event_id: row.id, type: row.type, depth: row.cause_depth },
          "event not handled: too deep in a chain of consumer reactions",
        );
        withTx(db, () => statements.advance.run(row.rowid, at, consumer.name));
        continue;
      }
      try {
        withTx(db, (tx) => {
          const context = { deps, causedBy: row.cause_consumer, depth: row.cause_depth };
          withEventCause({ consumer: consumer.name, depth: row.cause_depth + 1 }, () =>
            consumer.handle(tx, eventOf(row), context),
          );
          statements.advance.run(row.rowid, at, consumer.name);
        });
        failures.delete(consumer.name);
        handled++;
      } catch (error) {
        const count = failure?.rowid === row.rowid ? failure.count + 1 : 1;
        const log = { err: error, consumer: consumer.name, event_id: row.id, type: row.type, attempt: count };
        if (count > RETRY_DELAYS_MS.length) {
          // Retrying has not helped: one bad event must not stop the consumer for good.
          logger.error(log, "consumer skipped an event it failed to handle");
          withTx(db, () => statements.advance.run(row.rowid, at, consumer.name));
          failures.delete(consumer.name);
          continue;
        }
        logger.warn(log, "consumer failed to handle an event; will retry");
        failures.set(consumer.name, {
          rowid: row.rowid,
          count,
          retryAt: clock.now().getTime() + RETRY_DELAYS_MS[count - 1]!,
        });
        tally.ms += performance.now() - started;
        return { handled, more: false };
      }
    }
    // One advance for the batch: to the newest event when the scan found them all, else past the
    // last row read (events passed over since the last handled one included).
    const end = rows.length < batch ? upTo : rows.at(-1)!.rowid;
    if (end > from && (skipped > 0 || end > (rows.at(-1)?.rowid ?? from)))
      withTx(db, () => statements.advance.run(end, clock.now().toISOString(), consumer.name));
    tally.handled += handled;
    tally.skipped += skipped;
    tally.ms += performance.now() - started;
    return { handled, more: rows.length === batch };
  }

  /** One pass over every consumer; passes repeat (yielding between them) while events remain. */
  async function pass(): Promise<number> {
    let total = 0;
    for (;;) {
      let more = false;
      for (const consumer of consumers) {
        try {
          const outcome = step(consumer);
          total += outcome.handled;
          more ||= outcome.more;
        } catch (error) {
          logger.error({ err: error, consumer: consumer.name }, "consumer pass failed");
        }
      }
      if (!more) return total;
      // Lets requests that arrived meanwhile be served between batches.
      await new Promise((resolve) => setImmediate(resolve));
    }
  }

  function run(): Promise<number> {
    if (running) return running.then(() => run());
    running = pass().finally(() => {
      running = null;
      arm();
    });
    return running;
  }

  function arm(): void {
    if (timer) clearTimeout(timer);
    timer = started ? setTimeout(() => wake(), pollMs) : null;
  }

  function wake(): void {
    if (!started || wakeQueued) return;
    wakeQueued = true;
    setImmediate(() => {
      wakeQueued = false;
      if (started) void run();
    });
  }

  return {
    start() {
      if (started || consumers.length === 0) return;
      started = true;
      ensureCursors();
      unsubscribe = onEventsCommitted(db, () => wake());
      wake();
    },
    async stop() {
      started = false;
      unsubscribe?.();
      unsubscribe = null;
      if (timer) clearTimeout(timer);
      timer = null;
      await running;
    },
    async drain() {
      if (consumers.length === 0) return 0;
      ensureCursors();
      // Reactions may append events that other consumers (or the same one) handle next.
      let total = 0;
      for (let handled = await run(); handled > 0; handled = await run()) total += handled;
      return total;
    },
    wake,
    stats: () => [...tallies].map(([name, t]) => ({ name, ...t })),
  };
}
