import type { Db } from "../db/database";
import type { Clock } from "../lib/clock";
import { type FailedJob, jobStatements } from "./jobs.statements";

export type JobQueueStats = {
  queued: number;
  due: number;
  running: number;
  failed_24h: number;
  oldest_due_seconds: number;
};

export type { FailedJob } from "./jobs.statements";

/** How long the oldest due job has waited to run (0 when none waits): readiness, metrics, the System page. */
export async function oldestDueMs(db: Db, now: Date): Promise<number> {
  const runAt = await jobStatements(db).oldestDueAt(now.toISOString());
  return runAt ? Math.max(0, now.getTime() - Date.parse(runAt)) : 0;
}

/** Jobs by kind and state (the metrics' gauge, read at each scrape). */
export const jobCountsByKindAndState = async (db: Db): Promise<Array<{ kind: string; state: string; n: number }>> =>
  await jobStatements(db).countsByKindAndState();

/** Running jobs whose lease ended before `before` (their runner is gone or stuck): readiness reports them. */
export const runningPastLease = async (db: Db, before: string): Promise<number> =>
  await jobStatements(db).runningPastLease(before);

/** The queue at a glance, for the System page: counts by state and how long the oldest due job waited. */
export async function jobQueueStats(db: Db, clock: Clock): Promise<JobQueueStats> {
  const now = clock.now();
  const nowIso = now.toISOString();
  const dayAgo = new Date(now.getTime() - 86_400_000).toISOString();
  const row = await jobStatements(db).queueCounts(nowIso, dayAgo);
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
  return await jobStatements(db).recentFailed(workspaceId, limit);
}
