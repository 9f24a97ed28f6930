import { Cron } from "croner";
import { batchedWrite, withTx } from "../db/tx";
import {
  backoffDelay,
  DEFAULT_RETRY,
  PermanentFailure,
  Requeue,
  RetryLater,
  type AnyJob,
  type RetryPolicy,
} from "./define";
import { enqueueByName } from "./enqueue";
import { isoNow, type JobRow, type Run, type RunnerState } from "./runner.state";

const policyOf = <D>(definition: AnyJob<D> | undefined): RetryPolicy => ({
  ...DEFAULT_RETRY,
  ...definition?.retry,
});

const maxAttemptsOf = <D>(row: JobRow, definition: AnyJob<D> | undefined) =>
  row.max_attempts > 0 ? row.max_attempts : policyOf(definition).maxAttempts;

/** For outcomes that free their slot at once (lease expiry): written before the slot is reused. */
export const writeNow = (apply: () => void): Promise<void> => {
  try {
    apply();
    return Promise.resolve();
  } catch (error) {
    return Promise.reject(error);
  }
};

/**
 * Writes a run's outcome once; a run already handed back or timed out writes nothing. Outcomes
 * of runs finishing in the same turn commit together (batchedWrite).
 */
export function settle<D>(
  state: RunnerState<D>,
  run: Run<D>,
  outcome: { ok: true } | { ok: false; error: unknown },
  write = (apply: () => void) => batchedWrite(state.db, apply),
): Promise<void> {
  if (run.settled) return Promise.resolve();
  run.settled = true;
  const { clock, logger, statements } = state;
  const { row, definition } = run;
  const at = isoNow(state);
  if (outcome.ok) return write(() => statements.finish.run(at, row.id));
  const error = outcome.error;
  if (error instanceof Requeue) {
    const runAt = new Date(clock.now().getTime() + Math.max(0, error.delayMs)).toISOString();
    return write(() => statements.putBack.run(runAt, at, row.id));
  }
  const log = logger.child({ job: row.kind, job_id: row.id, attempt: row.attempts });
  const message = error instanceof Error ? error.message : String(error);
  const exhausted = row.attempts >= maxAttemptsOf(row, definition);
  if (error instanceof PermanentFailure || exhausted) {
    log.warn({ err: message }, "job failed for good");
    return write(() => statements.fail.run(message, at, row.id));
  }
  const delay = error instanceof RetryLater ? error.delayMs : backoffDelay(row.attempts, policyOf(definition));
  log.info({ err: message, retry_in_ms: delay }, "job failed; will retry");
  const runAt = new Date(clock.now().getTime() + delay).toISOString();
  return write(() => statements.reschedule.run(runAt, message, at, row.id));
}

export function scheduleRecurring<D>(state: RunnerState<D>, definition: AnyJob<D>): void {
  if (!definition.schedule || state.stopping) return;
  const next = new Cron(definition.schedule, { timezone: "UTC" }).nextRun(state.clock.now());
  if (!next) return;
  withTx(state.db, (tx) =>
    enqueueByName(tx, definition.name, {}, { runAt: next, uniqueKey: `cron:${definition.name}`, maxAttempts: 1 }),
  );
}

/**
 * A single process owns the file, so at start anything still `running` was cut off by a crash.
 * It runs again, unless that interrupted run was already its last attempt (a job that kills the
 * process every time must not loop forever).
 */
export function recoverInterrupted<D>(state: RunnerState<D>): void {
  const { statements, definitions } = state;
  for (const row of statements.leftRunning.all()) {
    if (row.attempts >= maxAttemptsOf(row, definitions.get(row.kind)))
      statements.fail.run("interrupted on its last attempt", isoNow(state), row.id);
    else statements.requeue.run(isoNow(state), row.id);
  }
}
