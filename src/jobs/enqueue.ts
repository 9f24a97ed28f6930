import type { Db, Tx } from "../db/database";
import { deskClock } from "../db/desk-clock";
import { deskState } from "../db/desk-state";
import { afterCommit, dbOf } from "../db/tx";
import { newId } from "../lib/ids";
import type { Job } from "./define";
import { jobStatements } from "./jobs.statements";

export type EnqueueOptions = {
  runAt?: Date;
  workspaceId?: string | null;
  /** While a queued or running job has this key, another enqueue with it is skipped. */
  uniqueKey?: string;
  /**
   * With `uniqueKey`: when the job holding the key is queued for later than this one would run,
   * it is moved up to this one's time instead (new work for a worker waiting on a retry).
   */
  sooner?: boolean;
  /** Overrides the kind's retry policy for this job; unset (stored as 0) means the kind's policy. */
  maxAttempts?: number;
};

/** max_attempts 0 in a row: the runner applies the kind's `retry.maxAttempts`. */
export const KIND_POLICY = 0;

/**
 * What the job runner of a desk tells enqueue: how to wake it, and whose clock "now" is. Kept in a
 * slot of the desk's runtime (`link` null until a runner is built).
 */
type RunnerLink = { wake: () => void; now: () => Date };

const runnerSlot = deskState("jobs.runner-link", () => ({ link: null as RunnerLink | null }));

/** The runner registers itself; enqueue wakes it after commit so new work starts at once. */
export function registerRunnerLink(db: Db, link: RunnerLink): void {
  runnerSlot(db).link = link;
}

/** "Now" by the job runner's clock, the one workers compare due times with (the desk's clock before a runner exists). */
export function runnerNow(db: Db): Date {
  return runnerSlot(db).link?.now() ?? deskClock(db).now();
}

/**
 * Adds a job inside the caller's transaction, so the job exists exactly when the change does.
 * The payload is checked against the job's schema at compile time (its input type).
 * Returns the job id, or null when a job with the same unique key is already waiting.
 */
export async function enqueue<In, D>(
  tx: Tx,
  job: Job<In, D>,
  payload: NoInfer<In>,
  options: EnqueueOptions = {},
): Promise<string | null> {
  return await enqueueByName(tx, job.name, payload, options);
}

/**
 * The untyped form, for the scheduler's recurring runs and tests that store payloads a schema
 * would refuse. "Now" is the runner's clock (tests move it), so a job enqueued without runAt is
 * due at once.
 */
export async function enqueueByName(
  tx: Tx,
  kind: string,
  payload: unknown,
  options: EnqueueOptions = {},
): Promise<string | null> {
  const runner = runnerSlot(dbOf(tx));
  const nowDate = runnerNow(dbOf(tx));
  const now = nowDate.toISOString();
  const id = newId();
  const statements = jobStatements(tx);
  const inserted = await statements.enqueue({
    id,
    kind,
    workspaceId: options.workspaceId ?? null,
    payload: payload ?? {},
    runAt: (options.runAt ?? nowDate).toISOString(),
    maxAttempts: options.maxAttempts ?? KIND_POLICY,
    uniqueKey: options.uniqueKey ?? null,
    at: now,
  });
  if (!inserted) {
    if (options.sooner && options.uniqueKey) {
      const at = (options.runAt ?? nowDate).toISOString();
      if ((await statements.moveSooner(options.uniqueKey, at, now)) > 0) afterCommit(tx, () => runner.link?.wake());
    }
    return null;
  }
  afterCommit(tx, () => runner.link?.wake());
  return id;
}
