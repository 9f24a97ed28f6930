import type { Database } from "bun:sqlite";
import type { Db } from "../db/database";
import type { Clock } from "../lib/clock";
import type { Logger } from "../lib/logger";
import type { AnyJob } from "./define";

export type JobRow = { id: string; kind: string; payload: string; attempts: number; max_attempts: number };

/** One claimed run: its own abort signal, and whether its outcome may still be written. */
export type Run<D> = {
  row: JobRow;
  definition: AnyJob<D>;
  controller: AbortController;
  settled: boolean;
  promise: Promise<void>;
};

/** The statements of one runner, prepared once. */
export function runnerStatements(sqlite: Database) {
  return {
    claim: sqlite.query<JobRow, [string, string, string, string, number]>(
      `UPDATE jobs SET state = 'running', attempts = attempts + 1, lease_until = ?, updated_at = ?
     WHERE id IN (SELECT id FROM jobs WHERE state = 'queued' AND run_at <= ? AND kind = ? ORDER BY run_at LIMIT ?)
     RETURNING id, kind, payload, attempts, max_attempts`,
    ),
    // Only kinds that could start now count, so a saturated or unknown kind never spins the timer.
    nextDue: sqlite.query<{ run_at: string | null }, [string]>(
      "SELECT min(run_at) AS run_at FROM jobs WHERE state = 'queued' AND kind IN (SELECT value FROM json_each(?))",
    ),
    finish: sqlite.query<unknown, [string, string]>(
      "UPDATE jobs SET state = 'done', lease_until = NULL, last_error = NULL, updated_at = ? WHERE id = ? AND state = 'running'",
    ),
    reschedule: sqlite.query<unknown, [string, string, string, string]>(
      "UPDATE jobs SET state = 'queued', run_at = ?, lease_until = NULL, last_error = ?, updated_at = ? WHERE id = ? AND state = 'running'",
    ),
    putBack: sqlite.query<unknown, [string, string, string]>(
      "UPDATE jobs SET state = 'queued', run_at = ?, attempts = max(attempts - 1, 0), lease_until = NULL, updated_at = ? WHERE id = ? AND state = 'running'",
    ),
    fail: sqlite.query<unknown, [string, string, string]>(
      "UPDATE jobs SET state = 'failed', lease_until = NULL, last_error = ?, updated_at = ? WHERE id = ? AND state = 'running'",
    ),
    handBack: sqlite.query<unknown, [string, string]>(
      "UPDATE jobs SET state = 'queued', attempts = max(attempts - 1, 0), lease_until = NULL, updated_at = ? WHERE id = ? AND state = 'running'",
    ),
    leftRunning: sqlite.query<JobRow, []>(
      "SELECT id, kind, payload, attempts, max_attempts FROM jobs WHERE state = 'running'",
    ),
    requeue: sqlite.query<unknown, [string, string]>(
      "UPDATE jobs SET state = 'queued', lease_until = NULL, last_error = 'interrupted by a restart', updated_at = ? WHERE id = ?",
    ),
  };
}

/** One runner's state, shared by its outcome, run and scheduler functions. */
export type RunnerState<D> = {
  db: Db;
  logger: Logger;
  clock: Clock;
  deps: D;
  pollMs: number;
  /** Customer-lane kinds first: a turn claims for them before background kinds (see JobOptions.lane). */
  definitions: Map<string, AnyJob<D>>;
  running: Map<string, number>;
  runs: Map<string, Run<D>>;
  statements: ReturnType<typeof runnerStatements>;
  timer: ReturnType<typeof setTimeout> | null;
  started: boolean;
  stopping: boolean;
  ticking: boolean;
  tickAgain: boolean;
  wakeQueued: boolean;
  /** Kinds a scheduler turn must claim for: a freed slot only concerns its own kind; null means all. */
  kindsToClaim: Set<string> | null;
  /** Asks for a scheduler turn (src/jobs/runner.scheduler.ts); `kind` narrows it to that kind. */
  wake(kind?: string): void;
};

export const isoNow = <D>(state: RunnerState<D>) => state.clock.now().toISOString();
