import type { Database } from "bun:sqlite";
import type { Db } from "../db/database";
import type { Clock } from "../lib/clock";
import type { Logger } from "../lib/logger";
import type { AnyJob } from "./define";

/** A run's lease unless its kind sets `leaseMs`. */
export const DEFAULT_LEASE_MS = 300_000;

export type JobRow = {
  id: string;
  kind: string;
  payload: string;
  attempts: number;
  max_attempts: number;
  /** This claim's fencing token: every outcome write of the run names it. */
  lease_token: string;
};

/** One claimed run: its own abort signal, and whether its outcome may still be written. */
export type Run<D> = {
  row: JobRow;
  definition: AnyJob<D>;
  controller: AbortController;
  settled: boolean;
  promise: Promise<void>;
};

/** A running row whose runner is gone: requeued, or failed when that was its last attempt. */
export type OrphanRow = { id: string; kind: string; attempts: number; max_attempts: number; token: string };

const ORPHAN_COLUMNS = "id, kind, attempts, max_attempts, coalesce(lease_token, '') AS token";
// Fenced like every outcome; rows claimed before leases were recorded have no token ('').
const ORPHAN_FENCE = "id = ? AND state = 'running' AND coalesce(lease_token, '') = ?";
const FENCE = "id = ? AND state = 'running' AND lease_token = ?";

/**
 * The statements of one runner, prepared once. Outcome writes are fenced by the claim's token: the
 * late outcome of a run whose lease another runner took over matches no row (the caller logs it).
 */
export function runnerStatements(sqlite: Database) {
  return {
    // One statement, so two runners never claim the same row; PostgreSQL's twin adds `FOR UPDATE
    // SKIP LOCKED` to the inner SELECT so concurrent claims pass over each other's rows.
    claim: sqlite.query<JobRow, [string, string, string, string, string, string, string, number]>(
      `UPDATE jobs SET state = 'running', attempts = attempts + 1, lease_until = ?, lease_owner = ?, lease_node = ?,
       lease_token = ?, updated_at = ?
     WHERE id IN (SELECT id FROM jobs WHERE state = 'queued' AND run_at <= ? AND kind = ? ORDER BY run_at LIMIT ?)
     RETURNING id, kind, payload, attempts, max_attempts, lease_token`,
    ),
    // Only kinds that could start now count, so a saturated or unknown kind never spins the timer.
    nextDue: sqlite.query<{ run_at: string | null }, [string]>(
      "SELECT min(run_at) AS run_at FROM jobs WHERE state = 'queued' AND kind IN (SELECT value FROM json_each(?))",
    ),
    finish: sqlite.query<unknown, [string, string, string]>(
      `UPDATE jobs SET state = 'done', lease_until = NULL, last_error = NULL, updated_at = ? WHERE ${FENCE}`,
    ),
    reschedule: sqlite.query<unknown, [string, string, string, string, string]>(
      `UPDATE jobs SET state = 'queued', run_at = ?, lease_until = NULL, last_error = ?, updated_at = ? WHERE ${FENCE}`,
    ),
    putBack: sqlite.query<unknown, [string, string, string, string]>(
      `UPDATE jobs SET state = 'queued', run_at = ?, attempts = max(attempts - 1, 0), lease_until = NULL, updated_at = ?
       WHERE ${FENCE}`,
    ),
    fail: sqlite.query<unknown, [string, string, string, string]>(
      `UPDATE jobs SET state = 'failed', lease_until = NULL, last_error = ?, updated_at = ? WHERE ${FENCE}`,
    ),
    handBack: sqlite.query<unknown, [string, string, string]>(
      `UPDATE jobs SET state = 'queued', attempts = max(attempts - 1, 0), lease_until = NULL, updated_at = ?
       WHERE ${FENCE}`,
    ),
    // The heartbeat: one statement renews every run of this runner, each to its own kind's lease
    // ([id, token, lease_until] triples); a run missing from the answer lost its lease.
    renew: sqlite.query<{ id: string }, [string]>(
      `UPDATE jobs SET lease_until = r.lease_until
       FROM (SELECT value ->> '$[0]' AS id, value ->> '$[1]' AS token, value ->> '$[2]' AS lease_until
             FROM json_each(?)) AS r
       WHERE jobs.id = r.id AND jobs.state = 'running' AND jobs.lease_token = r.token
       RETURNING jobs.id`,
    ),
    // Runs of this node left by a runner no longer in this process (a crash or kill), and runs
    // claimed before leases named their owner. PostgreSQL's twin: lease_owner <> ALL(?).
    leftByThisNode: sqlite.query<OrphanRow, [string, string, number]>(
      `SELECT ${ORPHAN_COLUMNS} FROM jobs WHERE state = 'running' AND (lease_owner IS NULL
         OR (lease_node = ? AND lease_owner NOT IN (SELECT value FROM json_each(?)))) LIMIT ?`,
    ),
    // Only kinds this runner knows: it could run them again, and knows their retry policy (a node
    // of another version may define kinds this one lacks).
    expired: sqlite.query<OrphanRow, [string, string, number]>(
      `SELECT ${ORPHAN_COLUMNS} FROM jobs WHERE state = 'running' AND lease_until < ?
       AND kind IN (SELECT value FROM json_each(?)) ORDER BY lease_until LIMIT ?`,
    ),
    // Back to 'queued', or 'failed' when that was its last attempt. `lease_until < ?` again: a
    // renewal between the read and this write keeps the run.
    releaseExpired: sqlite.query<unknown, [string, string, string, string, string, string]>(
      `UPDATE jobs SET state = ?, lease_until = NULL, last_error = ?, updated_at = ?
       WHERE ${ORPHAN_FENCE} AND lease_until < ?`,
    ),
    releaseOrphan: sqlite.query<unknown, [string, string, string, string, string]>(
      `UPDATE jobs SET state = ?, lease_until = NULL, last_error = ?, updated_at = ? WHERE ${ORPHAN_FENCE}`,
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
  /** The kinds of `definitions` as a JSON array, for statements that take them. */
  kindsJson: string;
  running: Map<string, number>;
  runs: Map<string, Run<D>>;
  statements: ReturnType<typeof runnerStatements>;
  /** This runner's lease owner id, fresh at each start. */
  owner: string;
  /** DESK_NODE_NAME, else the hostname: a fresh start requeues at once what its node's dead runners left. */
  node: string;
  /** The lease heartbeat's timer while runs exist, and its period. */
  heartbeat: ReturnType<typeof setTimeout> | null;
  heartbeatMs: number;
  /** Clock time (ms) before which a turn does not look for expired leases again. */
  nextReclaimAt: number;
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
