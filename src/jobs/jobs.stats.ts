import type { Db } from "../db/database";
import { preparedFor } from "../db/prepared";
import type { Clock } from "../lib/clock";

export type JobQueueStats = {
  queued: number;
  due: number;
  running: number;
  failed_24h: number;
  oldest_due_seconds: number;
};

export type FailedJob = { kind: string; workspace_id: string | null; error: string; at: string };

const oldestDueOf = preparedFor((sqlite) =>
  sqlite.query<{ run_at: string | null }, [string]>(
    "SELECT min(run_at) AS run_at FROM jobs WHERE state = 'queued' AND run_at <= ?",
  ),
);

/** How long the oldest due job has waited to run (0 when none waits): readiness, metrics, the System page. */
export async function oldestDueMs(db: Db, now: Date): Promise<number> {
  const runAt = oldestDueOf(db).get(now.toISOString())?.run_at;
  return runAt ? Math.max(0, now.getTime() - Date.parse(runAt)) : 0;
}

const countsOf = preparedFor((sqlite) =>
  sqlite.query<{ kind: string; state: string; n: number }, []>(
    "SELECT kind, state, count(*) AS n FROM jobs GROUP BY kind, state",
  ),
);

/** Jobs by kind and state (the metrics' gauge, read at each scrape). */
export const jobCountsByKindAndState = async (db: Db): Promise<Array<{ kind: string; state: string; n: number }>> =>
  countsOf(db).all();

const overdueOf = preparedFor((sqlite) =>
  sqlite.query<{ n: number }, [string]>("SELECT count(*) AS n FROM jobs WHERE state = 'running' AND lease_until < ?"),
);

/** Running jobs whose lease ended before `before` (their runner is gone or stuck): readiness reports them. */
export const runningPastLease = async (db: Db, before: string): Promise<number> => overdueOf(db).get(before)?.n ?? 0;

/** The queue at a glance, for the System page: counts by state and how long the oldest due job waited. */
export async function jobQueueStats(db: Db, clock: Clock): Promise<JobQueueStats> {
  const now = clock.now();
  const nowIso = now.toISOString();
  const dayAgo = new Date(now.getTime() - 86_400_000).toISOString();
  const row = db.$client
    .query<{ queued: number; due: number; running: number; failed: number }, [string, string]>(
      `SELECT
         (SELECT count(*) FROM jobs WHERE state = 'queued') AS queued,
         (SELECT count(*) FROM jobs WHERE state = 'queued' AND run_at <= ?) AS due,
         (SELECT count(*) FROM jobs WHERE state = 'running') AS running,
         (SELECT count(*) FROM jobs WHERE state = 'failed' AND updated_at >= ?) AS failed`,
    )
    .get(nowIso, dayAgo);
  const oldest = await oldestDueMs(db, now);
  return {
    queued: row?.queued ?? 0,
    due: row?.due ?? 0,
    running: row?.running ?? 0,
    failed_24h: row?.failed ?? 0,
    oldest_due_seconds: Math.round(oldest / 1000),
  };
}

/** The newest jobs that failed for good, of one workspace or (null) of the instance. */
export async function recentFailedJobs(db: Db, workspaceId: string | null, limit = 10): Promise<FailedJob[]> {
  return db.$client
    .query<FailedJob, [string | null, string | null, number]>(
      `SELECT kind, workspace_id, coalesce(last_error, '') AS error, updated_at AS at FROM jobs
       WHERE state = 'failed' AND (? IS NULL OR workspace_id = ?) ORDER BY updated_at DESC LIMIT ?`,
    )
    .all(workspaceId, workspaceId, limit);
}
