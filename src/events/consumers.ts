import type { Db, Tx } from "../db/database";
import { deskState } from "../db/desk-state";
import { transact } from "../db/tx";
import type { Clock } from "../lib/clock";
import type { Logger } from "../lib/logger";
import { onEventsCommitted } from "./bus";
import { eventStatements } from "./events.statements";
import { FEED_ON, quietListenersOf, tellNodesQuietChanged } from "./feed";
import { withEventCause } from "./cause";
import { type Consumer, IMPORT_CAUSE } from "./consumer.define";
import {
  createStepState,
  noteCommitted,
  pendingLag,
  pollCounters,
  scanAllWorkspaces,
  type StepState,
  stepConsumer,
} from "./consumers.step";

export {
  type Consumer,
  type ConsumerContext,
  defineConsumer,
  MAX_CAUSE_DEPTH,
} from "./consumer.define";

/** Runs `fn` so that the events it appends reach no consumer (see IMPORT_CAUSE). */
export const withoutReactions = <T>(tx: Tx, fn: () => T | Promise<T>): Promise<T> =>
  withEventCause(tx, { consumer: IMPORT_CAUSE, depth: 0 }, fn);

export type ConsumerRunner = {
  start(): Promise<void>;
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
  /** Stored events after its cursors, summed over workspaces (of any type: the ones it does not handle cost a scan too). */
  eventsBehind: number;
  /** How long the oldest event after its cursor has waited (0 when it is caught up). */
  secondsBehind: number;
};

/**
 * How far each consumer's cursors are behind the event log, read from the stored cursors (so it
 * counts what a stopped or crashed runner left too): the events past its cursor summed over the
 * workspaces (seqs are contiguous, so each is a difference, not a scan), and the age of the oldest.
 * For a consumer of the started runner, only its pending workspaces are read; otherwise every
 * workspace's counter is compared with the cursor.
 */
export async function consumerLag(db: Db, now: Date, names?: readonly string[]): Promise<ConsumerLag[]> {
  const statements = eventStatements(db);
  // By default the consumers a runner of this desk was built with: a cursor a removed consumer
  // left behind would otherwise show a lag that grows forever.
  const running = runningNamesOf(db);
  const wanted = names ? new Set(names) : running.size > 0 ? running : null;
  const live = liveLagOf(db).lagOf;
  return await Promise.all(
    (await statements.consumerNames())
      .filter((name) => !wanted || wanted.has(name))
      .map(async (name) => {
        const lag = (await live?.(name)) ?? (await statements.storedLag(name));
        const waited = lag?.oldest ? (now.getTime() - Date.parse(lag.oldest)) / 1000 : 0;
        return { name, eventsBehind: lag?.behind ?? 0, secondsBehind: Math.max(0, waited) };
      }),
  );
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
/** The started runner's answer from its pending workspaces, so `consumerLag` need not read every cursor. */
const liveLagOf = deskState("events.consumer-lag", () => ({
  lagOf: null as
    | ((
        name: string,
      ) =>
        | ({ behind: number; oldest: string | null } | null)
        | Promise<{ behind: number; oldest: string | null } | null>)
    | null,
}));
const quietCacheOf = deskState("events.quiet-workspaces", () => new Map<string, Map<string, boolean>>());

/**
 * Forgets every consumer's cached answer for a workspace: for a change to what `quiet.when` reads
 * that appends no event of its own (call it in the change's transaction).
 */
export function reactionStateChanged(db: Db, workspaceId: string): void {
  for (const answers of quietCacheOf(db).values()) answers.delete(workspaceId);
  // PostgreSQL: the other nodes' runners forget theirs when the change has committed.
  if (FEED_ON) tellNodesQuietChanged(db, workspaceId);
}

/** Another node's word that a workspace's quiet answers changed ("*": any of them, after a reconnect). */
function forgetQuiet(db: Db, workspaceId: string): void {
  const cache = quietCacheOf(db);
  for (const answers of cache.values()) {
    if (workspaceId === "*") answers.clear();
    else answers.delete(workspaceId);
  }
}

/**
 * One pass over every consumer; passes repeat (yielding between them) while events remain and
 * `goOn()` says so (a stopping runner ends after the batch in hand: the rest is stored and waits).
 */
async function pass<D>(state: StepState<D>, consumers: readonly Consumer<D>[], goOn: () => boolean): Promise<number> {
  let total = 0;
  for (;;) {
    let more = false;
    for (const consumer of consumers) {
      try {
        const outcome = await stepConsumer(state, consumer);
        total += outcome.handled;
        more ||= outcome.more;
      } catch (error) {
        state.logger.error({ err: error, consumer: consumer.name }, "consumer pass failed");
      }
    }
    if (!more || !goOn()) return total;
    // Lets requests that arrived meanwhile be served between batches.
    await new Promise((resolve) => setImmediate(resolve));
  }
}

/**
 * A consumer seen for the first time starts at "now": a cursor at each workspace's current seq.
 * A workspace without a cursor is at 0, so one created later has all its events handled.
 */
async function registerConsumers<D>(db: Db, clock: Clock, consumers: readonly Consumer<D>[]): Promise<void> {
  const statements = eventStatements(db);
  await transact(db, async () => {
    const at = clock.now().toISOString();
    for (const consumer of consumers) {
      const fresh = await statements.registerConsumer(consumer.name, at);
      if (fresh && consumer.from !== "beginning") await statements.startConsumerAtNow(consumer.name, at);
    }
  });
}

/**
 * Durable event consumers: each reads each workspace's stored events in seq order from its own
 * cursor there (a row of `event_consumer_cursors`), handling each event in one savepoint with the
 * cursor's advance. Woken after every commit that stored events, told which workspaces they
 * touched; a start and a drain compare every counter with the cursors (what a restart left), and
 * a timer reads the counters for those another process moved.
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
  const forget = (workspaceId: string) => forgetQuiet(db, workspaceId);

  // `whileStarted`: a pass a wake asked for, which does not start once the runner has stopped.
  function run(whileStarted = false): Promise<number> {
    if (running) return running.then(() => (whileStarted && !started ? 0 : run(whileStarted)));
    running = pass(state, consumers, () => !whileStarted || started).finally(() => {
      running = null;
      arm();
    });
    return running;
  }

  function arm(): void {
    if (timer) clearTimeout(timer);
    timer = started ? setTimeout(() => void poll(), pollMs) : null;
  }

  async function poll(): Promise<void> {
    try {
      await pollCounters(state);
    } catch (error) {
      logger.error({ err: error }, "consumer poll failed");
    }
    wake();
  }

  const ensureCursors = async () => await registerConsumers(db, clock, consumers);
  const lagOf = async (name: string) => await pendingLag(state, name);

  function wake(): void {
    if (!started || wakeQueued) return;
    wakeQueued = true;
    setImmediate(() => {
      wakeQueued = false;
      if (started) void run(true);
    });
  }

  return {
    async start() {
      if (started || consumers.length === 0) return;
      started = true;
      await ensureCursors();
      liveLagOf(db).lagOf = lagOf;
      // The counters as they stand, then every cursor compared with them: what a restart left.
      await pollCounters(state, true);
      scanAllWorkspaces(state);
      unsubscribe = onEventsCommitted(db, (events) => {
        noteCommitted(state, events);
        wake();
      });
      if (FEED_ON) quietListenersOf(db).add(forget);
      wake();
    },
    async stop() {
      started = false;
      if (liveLagOf(db).lagOf === lagOf) liveLagOf(db).lagOf = null;
      unsubscribe?.();
      unsubscribe = null;
      if (FEED_ON) quietListenersOf(db).delete(forget);
      if (timer) clearTimeout(timer);
      timer = null;
      await running;
    },
    async drain() {
      if (consumers.length === 0) return 0;
      await ensureCursors();
      // Reactions may append events that other consumers (or the same one) handle next; each run
      // asks the table, as their commit may not have told the runner yet.
      let total = 0;
      for (;;) {
        scanAllWorkspaces(state);
        const handled = await run();
        total += handled;
        if (handled === 0) return total;
      }
    },
    wake,
    stats: () => [...state.tallies].map(([name, t]) => ({ name, ...t })),
  };
}
