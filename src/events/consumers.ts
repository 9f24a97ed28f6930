import type { Db } from "../db/database";
import { deskState } from "../db/desk-state";
import { preparedFor } from "../db/prepared";
import { withTx } from "../db/tx";
import type { Clock } from "../lib/clock";
import type { Logger } from "../lib/logger";
import { onEventsCommitted } from "./bus";
import { withEventCause } from "./cause";
import { type Consumer, IMPORT_CAUSE } from "./consumer.define";
import { createStepState, statementsOf, stepConsumer } from "./consumers.step";

export {
  type Consumer,
  type ConsumerContext,
  defineConsumer,
  MAX_CAUSE_DEPTH,
} from "./consumer.define";

/** Runs `fn` so that the events it appends reach no consumer (see IMPORT_CAUSE). */
export const withoutReactions = <T>(fn: () => T): T => withEventCause({ consumer: IMPORT_CAUSE, depth: 0 }, fn);

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

const runningNamesOf = deskState("events.consumer-names", () => new Set<string>());
const quietCacheOf = deskState("events.quiet-workspaces", () => new Map<string, Map<string, boolean>>());

/**
 * Forgets every consumer's cached answer for a workspace: for a change to what `quiet.when` reads
 * that appends no event of its own (call it in the change's transaction).
 */
export function reactionStateChanged(db: Db, workspaceId: string): void {
  for (const answers of quietCacheOf(db).values()) answers.delete(workspaceId);
}

/**
 * Durable event consumers: each reads stored events in rowid order from its own cursor (a row of
 * `event_consumers`), handling each event in one savepoint with the cursor's advance. Woken after
 * every commit that stored events and by a timer.
 */
export function createConsumerRunner<D>(options: ConsumerRunnerOptions<D>): ConsumerRunner {
  const { db, logger, clock, deps, consumers } = options;
  const pollMs = options.pollMs ?? 5_000;
  const state = createStepState({ db, logger, clock, deps, consumers, batch: options.batch ?? 100 }, quietCacheOf(db));
  for (const consumer of consumers) runningNamesOf(db).add(consumer.name);
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

  /** One pass over every consumer; passes repeat (yielding between them) while events remain. */
  async function pass(): Promise<number> {
    let total = 0;
    for (;;) {
      let more = false;
      for (const consumer of consumers) {
        try {
          const outcome = stepConsumer(state, consumer);
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
    stats: () => [...state.tallies].map(([name, t]) => ({ name, ...t })),
  };
}
