import { Cron } from "croner";
import type { Db } from "../db/database";
import { withTx } from "../db/tx";
import type { Clock } from "../lib/clock";
import type { Logger } from "../lib/logger";
import { backoffDelay, DEFAULT_RETRY, PermanentFailure, RetryLater, type JobDefinition, type RetryPolicy } from "./define";
import { enqueue, registerWaker } from "./enqueue";

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

export type RunnerOptions = {
  db: Db;
  logger: Logger;
  clock: Clock;
  definitions: JobDefinition<never>[];
  pollMs?: number;
};

/**
 * The in-process durable scheduler. Jobs live in SQLite; a claim sets a lease, so a run that a
 * crash interrupted is picked up again after restart. Retries back off exponentially with jitter.
 */
export function createJobRunner(options: RunnerOptions): JobRunner {
  const { db, logger, clock } = options;
  const sqlite = db.$client;
  const definitions = new Map(options.definitions.map((d) => [d.name, d as unknown as JobDefinition<unknown>]));
  const running = new Map<string, number>();
  const inFlight = new Map<string, Promise<void>>();
  const abort = new AbortController();
  let timer: ReturnType<typeof setTimeout> | null = null;
  let started = false;
  let stopping = false;
  let ticking = false;
  let tickAgain = false;

  const claimStatement = sqlite.query<JobRow, [string, string, string, string, number]>(
    `UPDATE jobs SET state = 'running', attempts = attempts + 1, lease_until = ?, updated_at = ?
     WHERE id IN (SELECT id FROM jobs WHERE state = 'queued' AND run_at <= ? AND kind = ? ORDER BY run_at LIMIT ?)
     RETURNING id, kind, payload, attempts, max_attempts`,
  );
  const nextDue = sqlite.query<{ run_at: string }, []>("SELECT run_at FROM jobs WHERE state = 'queued' ORDER BY run_at LIMIT 1");
  const finish = sqlite.query<unknown, [string, string]>("UPDATE jobs SET state = 'done', lease_until = NULL, last_error = NULL, updated_at = ? WHERE id = ?");
  const reschedule = sqlite.query<unknown, [string, string, string, string]>(
    "UPDATE jobs SET state = 'queued', run_at = ?, lease_until = NULL, last_error = ?, updated_at = ? WHERE id = ?",
  );
  const fail = sqlite.query<unknown, [string, string, string]>("UPDATE jobs SET state = 'failed', lease_until = NULL, last_error = ?, updated_at = ? WHERE id = ?");
  const handBack = sqlite.query<unknown, [string, string]>(
    "UPDATE jobs SET state = 'queued', attempts = max(attempts - 1, 0), lease_until = NULL, updated_at = ? WHERE id = ? AND state = 'running'",
  );
  const recoverExpired = sqlite.query<unknown, [string, string]>(
    "UPDATE jobs SET state = 'queued', lease_until = NULL, updated_at = ? WHERE state = 'running' AND (lease_until IS NULL OR lease_until <= ?)",
  );

  function policyOf(definition: JobDefinition<unknown>): RetryPolicy {
    return { ...DEFAULT_RETRY, ...definition.retry };
  }

  function scheduleRecurring(definition: JobDefinition<unknown>): void {
    if (!definition.schedule) return;
    const next = new Cron(definition.schedule, { timezone: "UTC" }).nextRun(clock.now());
    if (!next) return;
    withTx(db, (tx) => enqueue(tx, definition.name, {}, { runAt: next, uniqueKey: `cron:${definition.name}`, maxAttempts: 1 }));
  }

  async function execute(row: JobRow, definition: JobDefinition<unknown>): Promise<void> {
    const log = logger.child({ job: row.kind, job_id: row.id, attempt: row.attempts });
    const now = () => clock.now().toISOString();
    try {
      const raw: unknown = JSON.parse(row.payload);
      const payload = definition.schema ? definition.schema.parse(raw) : raw;
      await definition.handler(payload, { jobId: row.id, attempt: row.attempts, logger: log, signal: abort.signal });
      finish.run(now(), row.id);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      if (error instanceof RetryLater && row.attempts < row.max_attempts) {
        reschedule.run(new Date(clock.now().getTime() + error.delayMs).toISOString(), message, now(), row.id);
      } else if (error instanceof PermanentFailure || row.attempts >= row.max_attempts) {
        log.warn({ err: message }, "job failed for good");
        fail.run(message, now(), row.id);
      } else {
        const delay = backoffDelay(row.attempts, policyOf(definition));
        log.info({ err: message, retry_in_ms: delay }, "job failed; will retry");
        reschedule.run(new Date(clock.now().getTime() + delay).toISOString(), message, now(), row.id);
      }
    } finally {
      running.set(row.kind, (running.get(row.kind) ?? 1) - 1);
      inFlight.delete(row.id);
      if (definition.schedule) scheduleRecurring(definition);
      wake();
    }
  }

  /** Claims what is due, up to each kind's concurrency, and starts it. */
  function claimDue(): Promise<void>[] {
    const now = clock.now();
    const started: Promise<void>[] = [];
    for (const definition of definitions.values()) {
      const free = (definition.concurrency ?? 4) - (running.get(definition.name) ?? 0);
      if (free <= 0) continue;
      const lease = new Date(now.getTime() + (definition.leaseMs ?? 300_000)).toISOString();
      const rows = claimStatement.all(lease, now.toISOString(), now.toISOString(), definition.name, free);
      for (const row of rows) {
        running.set(row.kind, (running.get(row.kind) ?? 0) + 1);
        const promise = execute(row, definition);
        inFlight.set(row.id, promise);
        started.push(promise);
      }
    }
    return started;
  }

  function armTimer(): void {
    if (timer) clearTimeout(timer);
    timer = null;
    if (!started || stopping) return;
    const due = nextDue.get();
    const wait = due ? Math.max(0, new Date(due.run_at).getTime() - clock.now().getTime()) : (options.pollMs ?? 30_000);
    timer = setTimeout(tick, Math.min(wait, options.pollMs ?? 30_000));
  }

  function tick(): void {
    if (!started || stopping) return;
    if (ticking) {
      tickAgain = true;
      return;
    }
    ticking = true;
    try {
      do {
        tickAgain = false;
        claimDue();
      } while (tickAgain);
    } catch (error) {
      logger.error({ err: error }, "job scheduler tick failed");
    } finally {
      ticking = false;
      armTimer();
    }
  }

  function wake(): void {
    if (started && !stopping) queueMicrotask(tick);
  }

  registerWaker(db, wake);

  return {
    start() {
      if (started) return;
      started = true;
      // A single process owns the file: anything still marked running was cut off by a crash.
      recoverExpired.run(clock.now().toISOString(), "9999-12-31T00:00:00.000Z");
      for (const definition of definitions.values()) scheduleRecurring(definition);
      tick();
    },
    async stop(graceMs = 10_000) {
      stopping = true;
      if (timer) clearTimeout(timer);
      const pending = [...inFlight.values()];
      const timeout = new Promise<"timeout">((resolve) => setTimeout(() => resolve("timeout"), graceMs).unref?.());
      const outcome = await Promise.race([Promise.allSettled(pending).then(() => "done" as const), timeout]);
      if (outcome === "timeout") {
        abort.abort();
        for (const id of inFlight.keys()) handBack.run(clock.now().toISOString(), id);
      }
      started = false;
    },
    async drain() {
      let total = 0;
      for (;;) {
        const batch = claimDue();
        const waiting = [...inFlight.values()];
        if (batch.length === 0 && waiting.length === 0) return total;
        total += batch.length;
        await Promise.allSettled(waiting);
      }
    },
    wake,
    stats: () => ({ running: Object.fromEntries(running) }),
  };
}
