import { Cron } from "croner";
import type { Db } from "../db/database";
import { batchedWrite, commitPending, untilDurable, withTx } from "../db/tx";
import type { Clock } from "../lib/clock";
import type { Logger } from "../lib/logger";
import {
  backoffDelay,
  DEFAULT_RETRY,
  PermanentFailure,
  Requeue,
  RetryLater,
  type AnyJob,
  type JobContext,
  type RetryPolicy,
} from "./define";
import { enqueueByName, registerRunnerLink } from "./enqueue";

type JobRow = { id: string; kind: string; payload: string; attempts: number; max_attempts: number };

export type JobRunner = {
  start(): void;
  /** Stops claiming; waits up to `graceMs` for running jobs, then hands the rest back to the queue. */
  stop(graceMs?: number): Promise<void>;
  /** Runs every due job now and waits for them (tests and CLI use it). */
  drain(): Promise<number>;
  wake(): void;
  stats(): { running: Record<string, number> };
};

export type RunnerOptions<D> = {
  db: Db;
  logger: Logger;
  clock: Clock;
  /** Handed to every handler as `context.deps`. */
  deps: D;
  definitions: AnyJob<D>[];
  pollMs?: number;
};

const DEFAULT_CONCURRENCY = 4;
const DEFAULT_LEASE_MS = 300_000;
/**
 * Runs started by one scheduler turn. Starting a run costs synchronous work (payload parse, the
 * handler's first DB reads); past this many the turn yields to the event loop so HTTP requests
 * are served between batches, and the next turn claims the rest.
 */
const MAX_STARTS_PER_TURN = 16;

/** One claimed run: its own abort signal, and whether its outcome may still be written. */
type Run<D> = {
  row: JobRow;
  definition: AnyJob<D>;
  controller: AbortController;
  settled: boolean;
  promise: Promise<void>;
};

/**
 * The in-process durable scheduler. Jobs live in SQLite; a claim sets a lease, so a run that a
 * crash interrupted is picked up again after restart. Retries back off exponentially with jitter;
 * each kind runs at most `concurrency` jobs at once; a run past its lease is aborted and retried.
 */
export function createJobRunner<D>(options: RunnerOptions<D>): JobRunner {
  const { db, logger, clock } = options;
  const pollMs = options.pollMs ?? 30_000;
  const sqlite = db.$client;
  // Customer-lane kinds first: a turn claims for them before background kinds (see JobOptions.lane).
  const definitions = new Map(
    [
      ...options.definitions.filter((d) => d.lane === "customer"),
      ...options.definitions.filter((d) => d.lane !== "customer"),
    ].map((d) => [d.name, d]),
  );
  const running = new Map<string, number>();
  const runs = new Map<string, Run<D>>();
  let timer: ReturnType<typeof setTimeout> | null = null;
  let started = false;
  let stopping = false;
  let ticking = false;
  let tickAgain = false;
  let wakeQueued = false;
  /** Kinds a scheduler turn must claim for: a freed slot only concerns its own kind; null means all. */
  let kindsToClaim: Set<string> | null = new Set();

  const claimStatement = sqlite.query<JobRow, [string, string, string, string, number]>(
    `UPDATE jobs SET state = 'running', attempts = attempts + 1, lease_until = ?, updated_at = ?
     WHERE id IN (SELECT id FROM jobs WHERE state = 'queued' AND run_at <= ? AND kind = ? ORDER BY run_at LIMIT ?)
     RETURNING id, kind, payload, attempts, max_attempts`,
  );
  // Only kinds that could start now count, so a saturated or unknown kind never spins the timer.
  const nextDue = sqlite.query<{ run_at: string | null }, [string]>(
    "SELECT min(run_at) AS run_at FROM jobs WHERE state = 'queued' AND kind IN (SELECT value FROM json_each(?))",
  );
  const finish = sqlite.query<unknown, [string, string]>(
    "UPDATE jobs SET state = 'done', lease_until = NULL, last_error = NULL, updated_at = ? WHERE id = ? AND state = 'running'",
  );
  const reschedule = sqlite.query<unknown, [string, string, string, string]>(
    "UPDATE jobs SET state = 'queued', run_at = ?, lease_until = NULL, last_error = ?, updated_at = ? WHERE id = ? AND state = 'running'",
  );
  const putBack = sqlite.query<unknown, [string, string, string]>(
    "UPDATE jobs SET state = 'queued', run_at = ?, attempts = max(attempts - 1, 0), lease_until = NULL, updated_at = ? WHERE id = ? AND state = 'running'",
  );
  const fail = sqlite.query<unknown, [string, string, string]>(
    "UPDATE jobs SET state = 'failed', lease_until = NULL, last_error = ?, updated_at = ? WHERE id = ? AND state = 'running'",
  );
  const handBack = sqlite.query<unknown, [string, string]>(
    "UPDATE jobs SET state = 'queued', attempts = max(attempts - 1, 0), lease_until = NULL, updated_at = ? WHERE id = ? AND state = 'running'",
  );
  const leftRunning = sqlite.query<JobRow, []>(
    "SELECT id, kind, payload, attempts, max_attempts FROM jobs WHERE state = 'running'",
  );
  const requeue = sqlite.query<unknown, [string, string]>(
    "UPDATE jobs SET state = 'queued', lease_until = NULL, last_error = 'interrupted by a restart', updated_at = ? WHERE id = ?",
  );

  const policyOf = (definition: AnyJob<D> | undefined): RetryPolicy => ({
    ...DEFAULT_RETRY,
    ...definition?.retry,
  });
  const maxAttemptsOf = (row: JobRow, definition: AnyJob<D> | undefined) =>
    row.max_attempts > 0 ? row.max_attempts : policyOf(definition).maxAttempts;
  const batchedWriteTo = (apply: () => void) => batchedWrite(db, apply);
  /** For outcomes that free their slot at once (lease expiry): written before the slot is reused. */
  const writeNow = (apply: () => void): Promise<void> => {
    try {
      apply();
      return Promise.resolve();
    } catch (error) {
      return Promise.reject(error);
    }
  };
  const isoNow = () => clock.now().toISOString();
  const freeSlots = (definition: AnyJob<D>) =>
    (definition.concurrency ?? DEFAULT_CONCURRENCY) - (running.get(definition.name) ?? 0);

  function scheduleRecurring(definition: AnyJob<D>): void {
    if (!definition.schedule || stopping) return;
    const next = new Cron(definition.schedule, { timezone: "UTC" }).nextRun(clock.now());
    if (!next) return;
    withTx(db, (tx) =>
      enqueueByName(tx, definition.name, {}, { runAt: next, uniqueKey: `cron:${definition.name}`, maxAttempts: 1 }),
    );
  }

  /**
   * Writes a run's outcome once; a run already handed back or timed out writes nothing. Outcomes
   * of runs finishing in the same turn commit together (batchedWrite).
   */
  function settle(
    run: Run<D>,
    outcome: { ok: true } | { ok: false; error: unknown },
    write = batchedWriteTo,
  ): Promise<void> {
    if (run.settled) return Promise.resolve();
    run.settled = true;
    const { row, definition } = run;
    const at = isoNow();
    if (outcome.ok) return write(() => finish.run(at, row.id));
    const error = outcome.error;
    if (error instanceof Requeue) {
      const runAt = new Date(clock.now().getTime() + Math.max(0, error.delayMs)).toISOString();
      return write(() => putBack.run(runAt, at, row.id));
    }
    const log = logger.child({ job: row.kind, job_id: row.id, attempt: row.attempts });
    const message = error instanceof Error ? error.message : String(error);
    const exhausted = row.attempts >= maxAttemptsOf(row, definition);
    if (error instanceof PermanentFailure || exhausted) {
      log.warn({ err: message }, "job failed for good");
      return write(() => fail.run(message, at, row.id));
    }
    const delay = error instanceof RetryLater ? error.delayMs : backoffDelay(row.attempts, policyOf(definition));
    log.info({ err: message, retry_in_ms: delay }, "job failed; will retry");
    const runAt = new Date(clock.now().getTime() + delay).toISOString();
    return write(() => reschedule.run(runAt, message, at, row.id));
  }

  async function execute(run: Run<D>): Promise<void> {
    const { row, definition } = run;
    const leaseMs = definition.leaseMs ?? DEFAULT_LEASE_MS;
    const leaseTimer = setTimeout(() => {
      // The run overstayed its lease: count it as a failed attempt and free its slot.
      run.controller.abort(new Error("lease expired"));
      settle(run, { ok: false, error: new Error(`run exceeded its ${leaseMs} ms lease`) }, writeNow).catch(
        (writeError: unknown) => logger.error({ err: writeError, job_id: row.id }, "could not record a job outcome"),
      );
      release(run);
    }, leaseMs);
    try {
      // The claim (its attempt count) must be stored before the handler acts: a run that kills the
      // process is then counted, and an uncommitted claim is never worked on.
      await untilDurable(db);
    } catch (error) {
      logger.error({ err: error, job_id: row.id }, "could not store a job's claim; it stays queued");
      clearTimeout(leaseTimer);
      release(run);
      return;
    }
    let outcome: { ok: true } | { ok: false; error: unknown };
    try {
      let payload: unknown;
      try {
        payload = JSON.parse(row.payload);
      } catch (error) {
        // A payload that does not parse will not parse on a retry either.
        throw new PermanentFailure(`invalid payload: ${error instanceof Error ? error.message : String(error)}`);
      }
      // The child logger is built on first use: building one per run costs more than most runs log.
      let log: Logger | undefined;
      const context: JobContext<D> = {
        jobId: row.id,
        attempt: row.attempts,
        get logger() {
          log ??= logger.child({ job: row.kind, job_id: row.id, attempt: row.attempts });
          return log;
        },
        signal: run.controller.signal,
        deps: options.deps,
      };
      await definition.perform(payload, context);
      outcome = { ok: true };
    } catch (error) {
      outcome = { ok: false, error };
    }
    try {
      await settle(run, outcome);
    } catch (writeError) {
      logger.error({ err: writeError, job_id: row.id }, "could not record a job outcome");
    } finally {
      clearTimeout(leaseTimer);
      release(run);
    }
  }

  function release(run: Run<D>): void {
    if (!runs.has(run.row.id)) return;
    runs.delete(run.row.id);
    running.set(run.row.kind, (running.get(run.row.kind) ?? 1) - 1);
    if (stopping) return;
    try {
      scheduleRecurring(run.definition);
    } catch (error) {
      logger.error({ err: error, job: run.row.kind }, "could not schedule the next recurring run");
    }
    wake(run.row.kind);
  }

  /**
   * Claims what is due, up to each kind's concurrency, and starts it. `only` limits the claim to
   * kinds that may have new work; `budget` caps the runs started, and kinds cut short are returned
   * in `unfinished` for the next turn.
   */
  function claimDue(only: Set<string> | null = null, budget = Infinity): { launched: number; unfinished: string[] } {
    const now = clock.now();
    let launched = 0;
    // Each lane spends its own budget: background starts never use up the customer lane's.
    const spent = { customer: 0, background: 0 };
    const unfinished: string[] = [];
    for (const definition of definitions.values()) {
      if (only && !only.has(definition.name)) continue;
      const free = freeSlots(definition);
      if (free <= 0) continue;
      const lane = definition.lane === "customer" ? "customer" : "background";
      const allowed = Math.min(free, budget - spent[lane]);
      if (allowed <= 0) {
        unfinished.push(definition.name);
        continue;
      }
      const lease = new Date(now.getTime() + (definition.leaseMs ?? DEFAULT_LEASE_MS)).toISOString();
      const rows = claimStatement.all(lease, now.toISOString(), now.toISOString(), definition.name, allowed);
      if (rows.length === allowed && allowed < free) unfinished.push(definition.name);
      for (const row of rows) {
        running.set(row.kind, (running.get(row.kind) ?? 0) + 1);
        const run: Run<D> = {
          row,
          definition,
          controller: new AbortController(),
          settled: false,
          promise: Promise.resolve(),
        };
        runs.set(row.id, run);
        run.promise = execute(run);
        launched++;
        spent[lane]++;
      }
    }
    return { launched, unfinished };
  }

  function armTimer(): void {
    if (timer) clearTimeout(timer);
    timer = null;
    if (!started || stopping) return;
    const startable = [...definitions.values()].filter((d) => freeSlots(d) > 0).map((d) => d.name);
    const due = startable.length ? nextDue.get(JSON.stringify(startable))?.run_at : null;
    const wait = due ? Math.max(0, new Date(due).getTime() - clock.now().getTime()) : pollMs;
    timer = setTimeout(() => tick(), Math.min(wait, pollMs));
  }

  /** One scheduler turn: claims for the kinds that may have work (all of them unless a wake narrowed it). */
  function tick(only: Set<string> | null = null): void {
    if (!started || stopping) return;
    if (ticking) {
      tickAgain = true;
      return;
    }
    ticking = true;
    let unfinished: string[] = [];
    try {
      do {
        tickAgain = false;
        unfinished = claimDue(only, MAX_STARTS_PER_TURN).unfinished;
      } while (tickAgain && unfinished.length === 0);
    } catch (error) {
      logger.error({ err: error }, "job scheduler tick failed");
    } finally {
      ticking = false;
      armTimer();
    }
    for (const kind of unfinished) wake(kind);
  }

  /**
   * Asks for a scheduler turn on the next event-loop pass (not a microtask: a burst of finished runs
   * or commits then shares one turn, and requests already waiting are served first). `kind` narrows
   * the turn to that kind (a freed slot); without it every kind is claimed (new commits, timer).
   */
  function wake(kind?: string): void {
    if (!started || stopping) return;
    if (kind === undefined) kindsToClaim = null;
    else kindsToClaim?.add(kind);
    if (wakeQueued) return;
    wakeQueued = true;
    setImmediate(() => {
      wakeQueued = false;
      const only = kindsToClaim;
      kindsToClaim = new Set();
      tick(only);
    });
  }

  /**
   * A single process owns the file, so at start anything still `running` was cut off by a crash.
   * It runs again, unless that interrupted run was already its last attempt (a job that kills the
   * process every time must not loop forever).
   */
  function recoverInterrupted(): void {
    for (const row of leftRunning.all()) {
      if (row.attempts >= maxAttemptsOf(row, definitions.get(row.kind)))
        fail.run("interrupted on its last attempt", isoNow(), row.id);
      else requeue.run(isoNow(), row.id);
    }
  }

  registerRunnerLink(db, { wake: () => wake(), now: () => clock.now() });

  return {
    start() {
      if (started) return;
      started = true;
      stopping = false;
      recoverInterrupted();
      for (const definition of definitions.values()) scheduleRecurring(definition);
      tick();
    },
    async stop(graceMs = 10_000) {
      stopping = true;
      if (timer) clearTimeout(timer);
      timer = null;
      const pending = [...runs.values()].map((r) => r.promise);
      let graceTimer: ReturnType<typeof setTimeout> | undefined;
      const timeout = new Promise<"timeout">((resolve) => {
        graceTimer = setTimeout(() => resolve("timeout"), graceMs);
      });
      const outcome = await Promise.race([Promise.allSettled(pending).then(() => "done" as const), timeout]);
      clearTimeout(graceTimer);
      if (outcome === "timeout") {
        // Outcomes already reached are committed first; whatever is still running goes back to
        // the queue untouched, and its late result is ignored.
        commitPending(db);
        for (const run of runs.values()) {
          run.settled = true;
          run.controller.abort(new Error("shutting down"));
          handBack.run(isoNow(), run.row.id);
        }
        runs.clear();
        running.clear();
      }
      started = false;
    },
    async drain() {
      let total = 0;
      for (;;) {
        const { launched } = claimDue();
        const waiting = [...runs.values()].map((r) => r.promise);
        if (launched === 0 && waiting.length === 0) return total;
        total += launched;
        await Promise.race([Promise.allSettled(waiting), new Promise((r) => setTimeout(r, 50))]);
      }
    },
    wake: () => wake(),
    stats: () => ({ running: Object.fromEntries(running) }),
  };
}
