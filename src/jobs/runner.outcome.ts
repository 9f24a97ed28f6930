import { Cron } from "croner";
import { batchedWrite, transact } from "../db/tx";
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

export const maxAttemptsOf = <D>(row: Pick<JobRow, "max_attempts">, definition: AnyJob<D> | undefined) =>
  row.max_attempts > 0 ? row.max_attempts : policyOf(definition).maxAttempts;

/** Logs, once per run, that an outcome write matched nothing: the lease went to another runner. */
export function noteLostLease<D>(state: RunnerState<D>, run: Run<D>, changes: number, what: string): void {
  if (changes > 0) return;
  state.logger.warn(
    { job: run.row.kind, job_id: run.row.id, owner: state.owner, node: state.node },
    `job lease lost; its ${what} was dropped`,
  );
}

/** For outcomes that free their slot at once (lease expiry): written before the slot is reused. */
export const writeNow = (apply: () => void | Promise<void>): Promise<void> => {
  try {
    return Promise.resolve(apply());
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
  write = (apply: () => void | Promise<void>) => batchedWrite(state.db, apply),
): Promise<void> {
  if (run.settled) return Promise.resolve();
  run.settled = true;
  const { clock, logger, statements } = state;
  const { row, definition } = run;
  const at = isoNow(state);
  const token = row.lease_token;
  if (outcome.ok)
    return write(async () => noteLostLease(state, run, await statements.finish(row.id, token, at), "success"));
  const error = outcome.error;
  if (error instanceof Requeue) {
    const runAt = new Date(clock.now().getTime() + Math.max(0, error.delayMs)).toISOString();
    return write(async () => noteLostLease(state, run, await statements.putBack(row.id, token, runAt, at), "requeue"));
  }
  const log = logger.child({ job: row.kind, job_id: row.id, attempt: row.attempts });
  const message = error instanceof Error ? error.message : String(error);
  const exhausted = row.attempts >= maxAttemptsOf(row, definition);
  if (error instanceof PermanentFailure || exhausted) {
    log.warn({ err: message }, "job failed for good");
    return write(async () => noteLostLease(state, run, await statements.fail(row.id, token, message, at), "failure"));
  }
  const delay = error instanceof RetryLater ? error.delayMs : backoffDelay(row.attempts, policyOf(definition));
  log.info({ err: message, retry_in_ms: delay }, "job failed; will retry");
  const runAt = new Date(clock.now().getTime() + delay).toISOString();
  return write(async () =>
    noteLostLease(state, run, await statements.reschedule(row.id, token, runAt, message, at), "retry"),
  );
}

const EVERY_MINUTE = "* * * * *";

/**
 * Queues a recurring kind's next run. At start (`atStart`), a kind that runs every minute runs at
 * once instead of at the next minute: it would within a minute anyway, and so its code is part of
 * start-up, which the executable lays out together (scripts/build.ts), rather than pages of the
 * executable mapped in a minute later (measured: idle RSS).
 */
export async function scheduleRecurring<D>(
  state: RunnerState<D>,
  definition: AnyJob<D>,
  atStart = false,
): Promise<void> {
  if (!definition.schedule || state.stopping) return;
  const now = state.clock.now();
  const next =
    atStart && definition.schedule === EVERY_MINUTE
      ? now
      : new Cron(definition.schedule, { timezone: "UTC" }).nextRun(now);
  if (!next) return;
  await transact(
    state.db,
    async (tx) =>
      await enqueueByName(
        tx,
        definition.name,
        {},
        { runAt: next, uniqueKey: `cron:${definition.name}`, maxAttempts: 1 },
      ),
  );
}
