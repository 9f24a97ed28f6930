import type { Db, Tx } from "../db/database";
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
};

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
     FROM events WHERE rowid > ? AND rowid <= ? AND type IN (SELECT value FROM json_each(?)) ORDER BY rowid LIMIT ?`,
  ),
}));

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
  const typesOf = new Map(consumers.map((c) => [c.name, JSON.stringify(c.types)]));
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
    let handled = 0;
    for (const row of rows) {
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
        return { handled, more: false };
      }
    }
    if (rows.length < batch && upTo > (rows.at(-1)?.rowid ?? from))
      withTx(db, () => statements.advance.run(upTo, clock.now().toISOString(), consumer.name));
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
  };
}
