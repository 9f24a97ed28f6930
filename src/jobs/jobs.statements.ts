import type { Queryable } from "../db/database";
import { dialectStatements, inListSql } from "../db/dialect";
import { postgresQuery } from "../db/postgres/query";
import { sqliteOf } from "../db/sqlite/prepared";

/** A claimed run as the runner holds it. */
export type JobRow = {
  id: string;
  kind: string;
  payload: string;
  attempts: number;
  max_attempts: number;
  /** This claim's fencing token: every outcome write of the run names it. */
  lease_token: string;
};

/** A running row whose runner is gone: requeued, or failed when that was its last attempt. */
export type OrphanRow = { id: string; kind: string; attempts: number; max_attempts: number; token: string };

export type FailedJob = { kind: string; workspace_id: string | null; error: string; at: string };

/** One claim statement's terms: up to `limit` due runs of `kind`, leased to this runner until `leaseUntil`. */
export type JobClaim = {
  kind: string;
  limit: number;
  /** ISO time: runs due at or before it are claimed; also the rows' updated_at. */
  now: string;
  leaseUntil: string;
  owner: string;
  node: string;
  token: string;
};

/** A renewal of one run's lease, fenced by its claim's token. */
export type LeaseRenewal = { id: string; token: string; leaseUntil: string };

/** A new queued job row; `at` is its created_at and updated_at. */
export type NewJob = {
  id: string;
  kind: string;
  workspaceId: string | null;
  payload: unknown;
  runAt: string;
  maxAttempts: number;
  uniqueKey: string | null;
  at: string;
};

/** Where an orphan or expired run goes: back to the queue, or failed on its last attempt. */
export type ReleasedState = "queued" | "failed";

/**
 * The job queue's statements: claim, leases, fenced outcomes, enqueue and the queue's figures. Every
 * outcome write matches `id AND state = 'running' AND lease_token` and answers how many rows it
 * changed (0: the lease went to another runner). PostgreSQL's twin claims with `FOR UPDATE SKIP
 * LOCKED` in the inner SELECT so concurrent claims pass over each other's rows, and binds the
 * `json_each` lists (kinds, live owners, renewals) as arrays (`= ANY($1)`, `<> ALL($1)`, `unnest`).
 *
 * The twin as it stands: lists bound as JSON text (`inListSql`; JSON written `?::text::jsonb`, as
 * Bun's client would encode a jsonb parameter again), the claim's inner SELECT `FOR UPDATE SKIP
 * LOCKED` (the runner runs the claim as a statement of its own, so it commits at once, at READ
 * COMMITTED, where a row another claim holds is passed over), every outcome write `RETURNING id` to
 * count its rows, the payload read back as JSON text (`payload::text`), counts cast to int.
 */
export interface JobStatements {
  /** Claims up to `limit` due queued runs of one kind for this runner; answers the claimed rows. */
  claimDue(claim: JobClaim): Promise<JobRow[]>;
  /** The earliest run_at of a queued job of these kinds, or null when none waits. */
  nextDueAt(kinds: readonly string[]): Promise<string | null>;
  /** Marks a run done; answers the rows changed (0: lease lost). */
  finish(id: string, token: string, at: string): Promise<number>;
  /** Queues a failed run again at `runAt` with its error; answers the rows changed. */
  reschedule(id: string, token: string, runAt: string, error: string, at: string): Promise<number>;
  /** Queues a run again at `runAt` without counting the attempt (Requeue); answers the rows changed. */
  putBack(id: string, token: string, runAt: string, at: string): Promise<number>;
  /** Fails a run for good with its error; answers the rows changed. */
  fail(id: string, token: string, error: string, at: string): Promise<number>;
  /** Hands a run back to the queue uncounted (shutdown); answers the rows changed. */
  handBack(id: string, token: string, at: string): Promise<number>;
  /** Renews each run's lease to its own time in one statement; answers the ids still held. */
  renewLeases(renewals: readonly LeaseRenewal[]): Promise<string[]>;
  /** Running rows of `node` whose owner is none of `liveOwners`, or that name no owner. */
  leftByNode(node: string, liveOwners: readonly string[], limit: number): Promise<OrphanRow[]>;
  /** Running rows of these kinds whose lease ended before `now`, oldest lease first. */
  expiredLeases(now: string, kinds: readonly string[], limit: number): Promise<OrphanRow[]>;
  /** Releases an expired run unless it was renewed meanwhile; answers the rows changed. */
  releaseExpired(id: string, token: string, next: ReleasedState, error: string, now: string): Promise<number>;
  /** Releases a run its dead runner left; answers the rows changed. */
  releaseOrphan(id: string, token: string, next: ReleasedState, error: string, at: string): Promise<number>;
  /** Inserts a queued job unless its unique key is held by a queued or running job; answers whether it did. */
  enqueue(job: NewJob): Promise<boolean>;
  /** Moves the queued job holding `uniqueKey` up to `runAt` if it waits for later; answers the rows changed. */
  moveSooner(uniqueKey: string, runAt: string, at: string): Promise<number>;
  /** The run_at of the oldest queued job due at `now`, or null. */
  oldestDueAt(now: string): Promise<string | null>;
  /** Job counts by kind and state. */
  countsByKindAndState(): Promise<Array<{ kind: string; state: string; n: number }>>;
  /** How many running jobs' leases ended before `before`. */
  runningPastLease(before: string): Promise<number>;
  /** Queued, due at `now`, running, and failed since `since`. */
  queueCounts(
    now: string,
    since: string,
  ): Promise<{ queued: number; due: number; running: number; failed: number } | null>;
  /** The newest jobs failed for good, of one workspace or (null) of the instance. */
  recentFailed(workspaceId: string | null, limit: number): Promise<FailedJob[]>;
}

const ORPHAN_COLUMNS = "id, kind, attempts, max_attempts, coalesce(lease_token, '') AS token";
// Fenced like every outcome; rows claimed before leases were recorded have no token ('').
const ORPHAN_FENCE = "id = ? AND state = 'running' AND coalesce(lease_token, '') = ?";
const FENCE = "id = ? AND state = 'running' AND lease_token = ?";

// The SQL both engines run as written; the PostgreSQL twin appends `RETURNING id` to count rows.
const FINISH = `UPDATE jobs SET state = 'done', lease_until = NULL, last_error = NULL, updated_at = ? WHERE ${FENCE}`;
const RESCHEDULE = `UPDATE jobs SET state = 'queued', run_at = ?, lease_until = NULL, last_error = ?, updated_at = ? WHERE ${FENCE}`;
const FAIL = `UPDATE jobs SET state = 'failed', lease_until = NULL, last_error = ?, updated_at = ? WHERE ${FENCE}`;
// `lease_until < ?` again: a renewal between the read and this write keeps the run.
const RELEASE_EXPIRED = `UPDATE jobs SET state = ?, lease_until = NULL, last_error = ?, updated_at = ?
       WHERE ${ORPHAN_FENCE} AND lease_until < ?`;
const RELEASE_ORPHAN = `UPDATE jobs SET state = ?, lease_until = NULL, last_error = ?, updated_at = ? WHERE ${ORPHAN_FENCE}`;
// `state IN (...)` lets SQLite use the partial unique index; `state = 'queued'` leaves a running job be.
const SOONER = `UPDATE jobs SET run_at = ?, updated_at = ? WHERE unique_key = ? AND state IN ('queued', 'running')
           AND state = 'queued' AND run_at > ?`;
const OLDEST_DUE = "SELECT min(run_at) AS run_at FROM jobs WHERE state = 'queued' AND run_at <= ?";
const RECENT_FAILED = `SELECT kind, workspace_id, coalesce(last_error, '') AS error, updated_at AS at FROM jobs
       WHERE state = 'failed' AND (? IS NULL OR workspace_id = ?) ORDER BY updated_at DESC LIMIT ?`;

/** SQLite: the statements prepared once per connection, lists bound as JSON for `json_each`. */
/** The SQLite statements behind JobStatements, prepared once per connection. */
function prepareJobQueries(db: Queryable) {
  return { ...prepareRunQueries(db), ...prepareQueueQueries(db) };
}

/** The claim, outcome and lease statements. */
function prepareRunQueries(db: Queryable) {
  const sqlite = sqliteOf(db);
  // One statement, so two runners never claim the same row.
  const claim = sqlite.query<JobRow, [string, string, string, string, string, string, string, number]>(
    `UPDATE jobs SET state = 'running', attempts = attempts + 1, lease_until = ?, lease_owner = ?, lease_node = ?,
       lease_token = ?, updated_at = ?
     WHERE id IN (SELECT id FROM jobs WHERE state = 'queued' AND run_at <= ? AND kind = ? ORDER BY run_at LIMIT ?)
     RETURNING id, kind, payload, attempts, max_attempts, lease_token`,
  );
  // Only kinds that could start now count, so a saturated or unknown kind never spins the timer.
  const nextDue = sqlite.query<{ run_at: string | null }, [string]>(
    "SELECT min(run_at) AS run_at FROM jobs WHERE state = 'queued' AND kind IN (SELECT value FROM json_each(?))",
  );
  const finish = sqlite.query<unknown, [string, string, string]>(FINISH);
  const reschedule = sqlite.query<unknown, [string, string, string, string, string]>(RESCHEDULE);
  const putBack = sqlite.query<unknown, [string, string, string, string]>(
    `UPDATE jobs SET state = 'queued', run_at = ?, attempts = max(attempts - 1, 0), lease_until = NULL, updated_at = ?
       WHERE ${FENCE}`,
  );
  const fail = sqlite.query<unknown, [string, string, string, string]>(FAIL);
  const handBack = sqlite.query<unknown, [string, string, string]>(
    `UPDATE jobs SET state = 'queued', attempts = max(attempts - 1, 0), lease_until = NULL, updated_at = ?
       WHERE ${FENCE}`,
  );
  // The heartbeat: one statement renews every run of this runner, each to its own kind's lease
  // ([id, token, lease_until] triples); a run missing from the answer lost its lease.
  const renew = sqlite.query<{ id: string }, [string]>(
    `UPDATE jobs SET lease_until = r.lease_until
       FROM (SELECT value ->> '$[0]' AS id, value ->> '$[1]' AS token, value ->> '$[2]' AS lease_until
             FROM json_each(?)) AS r
       WHERE jobs.id = r.id AND jobs.state = 'running' AND jobs.lease_token = r.token
       RETURNING jobs.id`,
  );
  // Runs of this node left by a runner no longer in this process (a crash or kill), and runs
  // claimed before leases named their owner.
  const leftByThisNode = sqlite.query<OrphanRow, [string, string, number]>(
    `SELECT ${ORPHAN_COLUMNS} FROM jobs WHERE state = 'running' AND (lease_owner IS NULL
         OR (lease_node = ? AND lease_owner NOT IN (SELECT value FROM json_each(?)))) LIMIT ?`,
  );
  // Only kinds this runner knows: it could run them again, and knows their retry policy (a node
  // of another version may define kinds this one lacks).
  const expired = sqlite.query<OrphanRow, [string, string, number]>(
    `SELECT ${ORPHAN_COLUMNS} FROM jobs WHERE state = 'running' AND lease_until < ?
       AND kind IN (SELECT value FROM json_each(?)) ORDER BY lease_until LIMIT ?`,
  );
  const releaseExpired = sqlite.query<unknown, [string, string, string, string, string, string]>(RELEASE_EXPIRED);
  const releaseOrphan = sqlite.query<unknown, [string, string, string, string, string]>(RELEASE_ORPHAN);
  return {
    claim,
    nextDue,
    finish,
    reschedule,
    putBack,
    fail,
    handBack,
    renew,
    leftByThisNode,
    expired,
    releaseExpired,
    releaseOrphan,
  };
}

/** Enqueueing and the queue's figures. */
function prepareQueueQueries(db: Queryable) {
  const sqlite = sqliteOf(db);
  // The text drizzle wrote for `insert(jobs).values(…).onConflictDoNothing().returning({ id })`:
  // the partial unique index on unique_key (queued or running) turns a held key into no row.
  const insert = sqlite.query<
    { id: string },
    [string, string, string | null, string, string, string, number, number, string | null, string, string]
  >(
    `insert into "jobs" ("id", "kind", "workspace_id", "payload", "state", "run_at", "attempts", "max_attempts", "lease_until", "lease_owner", "lease_node", "lease_token", "unique_key", "last_error", "created_at", "updated_at") values (?, ?, ?, ?, ?, ?, ?, ?, null, null, null, null, ?, null, ?, ?) on conflict do nothing returning "id"`,
  );
  const sooner = sqlite.query<unknown, [string, string, string, string]>(SOONER);
  const oldestDue = sqlite.query<{ run_at: string | null }, [string]>(OLDEST_DUE);
  const counts = sqlite.query<{ kind: string; state: string; n: number }, []>(
    "SELECT kind, state, count(*) AS n FROM jobs GROUP BY kind, state",
  );
  const overdue = sqlite.query<{ n: number }, [string]>(
    "SELECT count(*) AS n FROM jobs WHERE state = 'running' AND lease_until < ?",
  );
  const queue = sqlite.query<{ queued: number; due: number; running: number; failed: number }, [string, string]>(
    `SELECT
         (SELECT count(*) FROM jobs WHERE state = 'queued') AS queued,
         (SELECT count(*) FROM jobs WHERE state = 'queued' AND run_at <= ?) AS due,
         (SELECT count(*) FROM jobs WHERE state = 'running') AS running,
         (SELECT count(*) FROM jobs WHERE state = 'failed' AND updated_at >= ?) AS failed`,
  );
  const failed = sqlite.query<FailedJob, [string | null, string | null, number]>(RECENT_FAILED);
  return { insert, sooner, oldestDue, counts, overdue, queue, failed };
}

const sqliteJobStatements = (db: Queryable): JobStatements => {
  const q = prepareJobQueries(db);
  return {
    claimDue: async (c) => q.claim.all(c.leaseUntil, c.owner, c.node, c.token, c.now, c.now, c.kind, c.limit),
    nextDueAt: async (kinds) => q.nextDue.get(JSON.stringify(kinds))?.run_at ?? null,
    finish: async (id, token, at) => q.finish.run(at, id, token).changes,
    reschedule: async (id, token, runAt, error, at) => q.reschedule.run(runAt, error, at, id, token).changes,
    putBack: async (id, token, runAt, at) => q.putBack.run(runAt, at, id, token).changes,
    fail: async (id, token, error, at) => q.fail.run(error, at, id, token).changes,
    handBack: async (id, token, at) => q.handBack.run(at, id, token).changes,
    renewLeases: async (renewals) =>
      q.renew.all(JSON.stringify(renewals.map((r) => [r.id, r.token, r.leaseUntil]))).map((r) => r.id),
    leftByNode: async (node, liveOwners, limit) => q.leftByThisNode.all(node, JSON.stringify(liveOwners), limit),
    expiredLeases: async (now, kinds, limit) => q.expired.all(now, JSON.stringify(kinds), limit),
    releaseExpired: async (id, token, next, error, now) =>
      q.releaseExpired.run(next, error, now, id, token, now).changes,
    releaseOrphan: async (id, token, next, error, at) => q.releaseOrphan.run(next, error, at, id, token).changes,
    enqueue: async (job) =>
      q.insert.all(
        job.id,
        job.kind,
        job.workspaceId,
        JSON.stringify(job.payload),
        "queued",
        job.runAt,
        0,
        job.maxAttempts,
        job.uniqueKey,
        job.at,
        job.at,
      ).length > 0,
    moveSooner: async (uniqueKey, runAt, at) => q.sooner.run(runAt, at, uniqueKey, runAt).changes,
    oldestDueAt: async (now) => q.oldestDue.get(now)?.run_at ?? null,
    countsByKindAndState: async () => q.counts.all(),
    runningPastLease: async (before) => q.overdue.get(before)?.n ?? 0,
    queueCounts: async (now, since) => q.queue.get(now, since),
    recentFailed: async (workspaceId, limit) => q.failed.all(workspaceId, workspaceId, limit),
  };
};

type Changed = { id: string };
const counted = async (rows: Promise<Changed[]>): Promise<number> => (await rows).length;

/** PostgreSQL: the same statements with `?` placeholders, run in the calling change's transaction. */
const postgresJobStatements = (db: Queryable): JobStatements => {
  const returning = <P extends readonly unknown[]>(text: string) =>
    postgresQuery<Changed, P>(db, `${text} RETURNING id`);
  // SKIP LOCKED: a row another change is claiming is passed over, not waited for. The claimed rows
  // are answered in due order.
  const claim = postgresQuery<JobRow, [string, string, string, string, string, string, string, number]>(
    db,
    `WITH claimed AS (
       UPDATE jobs SET state = 'running', attempts = attempts + 1, lease_until = ?, lease_owner = ?, lease_node = ?,
         lease_token = ?, updated_at = ?
       WHERE id IN (SELECT id FROM jobs WHERE state = 'queued' AND run_at <= ? AND kind = ? ORDER BY run_at LIMIT ?
                    FOR UPDATE SKIP LOCKED)
       RETURNING id, kind, payload::text AS payload, attempts, max_attempts, lease_token, run_at)
     SELECT id, kind, payload, attempts, max_attempts, lease_token FROM claimed ORDER BY run_at, id`,
  );
  const nextDue = postgresQuery<{ run_at: string | null }, [string]>(
    db,
    `SELECT min(run_at) AS run_at FROM jobs WHERE state = 'queued' AND ${inListSql("kind", "postgres")}`,
  );
  const finish = returning<[string, string, string]>(FINISH);
  const reschedule = returning<[string, string, string, string, string]>(RESCHEDULE);
  const putBack = returning<[string, string, string, string]>(
    `UPDATE jobs SET state = 'queued', run_at = ?, attempts = greatest(attempts - 1, 0), lease_until = NULL, updated_at = ?
       WHERE ${FENCE}`,
  );
  const fail = returning<[string, string, string, string]>(FAIL);
  const handBack = returning<[string, string, string]>(
    `UPDATE jobs SET state = 'queued', attempts = greatest(attempts - 1, 0), lease_until = NULL, updated_at = ?
       WHERE ${FENCE}`,
  );
  const renew = postgresQuery<Changed, [string]>(
    db,
    `UPDATE jobs SET lease_until = r.lease_until
       FROM (SELECT value ->> 0 AS id, value ->> 1 AS token, value ->> 2 AS lease_until
             FROM jsonb_array_elements(?::text::jsonb) AS value) AS r
       WHERE jobs.id = r.id AND jobs.state = 'running' AND jobs.lease_token = r.token
       RETURNING jobs.id`,
  );
  const leftByThisNode = postgresQuery<OrphanRow, [string, string, number]>(
    db,
    `SELECT ${ORPHAN_COLUMNS} FROM jobs WHERE state = 'running' AND (lease_owner IS NULL
         OR (lease_node = ? AND NOT (${inListSql("lease_owner", "postgres")}))) LIMIT ?`,
  );
  const expired = postgresQuery<OrphanRow, [string, string, number]>(
    db,
    `SELECT ${ORPHAN_COLUMNS} FROM jobs WHERE state = 'running' AND lease_until < ?
       AND ${inListSql("kind", "postgres")} ORDER BY lease_until LIMIT ?`,
  );
  const releaseExpired = returning<[string, string, string, string, string, string]>(RELEASE_EXPIRED);
  const releaseOrphan = returning<[string, string, string, string, string]>(RELEASE_ORPHAN);
  // The partial unique index on unique_key (queued or running) turns a held key into no row.
  const insert = postgresQuery<
    Changed,
    [string, string, string | null, string, string, number, string | null, string, string]
  >(
    db,
    `INSERT INTO jobs (id, kind, workspace_id, payload, state, run_at, attempts, max_attempts, unique_key, created_at, updated_at)
     VALUES (?, ?, ?, ?::text::jsonb, 'queued', ?, 0, ?, ?, ?, ?) ON CONFLICT DO NOTHING RETURNING id`,
  );
  const sooner = returning<[string, string, string, string]>(SOONER);
  return {
    claimDue: (c) => claim.all(c.leaseUntil, c.owner, c.node, c.token, c.now, c.now, c.kind, c.limit),
    nextDueAt: async (kinds) => (await nextDue.get(JSON.stringify(kinds)))?.run_at ?? null,
    finish: (id, token, at) => counted(finish.all(at, id, token)),
    reschedule: (id, token, runAt, error, at) => counted(reschedule.all(runAt, error, at, id, token)),
    putBack: (id, token, runAt, at) => counted(putBack.all(runAt, at, id, token)),
    fail: (id, token, error, at) => counted(fail.all(error, at, id, token)),
    handBack: (id, token, at) => counted(handBack.all(at, id, token)),
    renewLeases: async (renewals) =>
      (await renew.all(JSON.stringify(renewals.map((r) => [r.id, r.token, r.leaseUntil])))).map((r) => r.id),
    leftByNode: (node, liveOwners, limit) => leftByThisNode.all(node, JSON.stringify(liveOwners), limit),
    expiredLeases: (now, kinds, limit) => expired.all(now, JSON.stringify(kinds), limit),
    releaseExpired: (id, token, next, error, now) => counted(releaseExpired.all(next, error, now, id, token, now)),
    releaseOrphan: (id, token, next, error, at) => counted(releaseOrphan.all(next, error, at, id, token)),
    enqueue: async (job) =>
      (
        await insert.all(
          job.id,
          job.kind,
          job.workspaceId,
          JSON.stringify(job.payload),
          job.runAt,
          job.maxAttempts,
          job.uniqueKey,
          job.at,
          job.at,
        )
      ).length > 0,
    moveSooner: (uniqueKey, runAt, at) => counted(sooner.all(runAt, at, uniqueKey, runAt)),
    ...postgresJobReports(db),
  };
};

type JobReports = Pick<
  JobStatements,
  "oldestDueAt" | "countsByKindAndState" | "runningPastLease" | "queueCounts" | "recentFailed"
>;

/** PostgreSQL: what /readyz, /metrics and the system page read of the queue. */
const postgresJobReports = (db: Queryable): JobReports => {
  const oldestDue = postgresQuery<{ run_at: string | null }, [string]>(db, OLDEST_DUE);
  const counts = postgresQuery<{ kind: string; state: string; n: number }, []>(
    db,
    "SELECT kind, state, count(*)::int AS n FROM jobs GROUP BY kind, state",
  );
  const overdue = postgresQuery<{ n: number }, [string]>(
    db,
    "SELECT count(*)::int AS n FROM jobs WHERE state = 'running' AND lease_until < ?",
  );
  const queue = postgresQuery<{ queued: number; due: number; running: number; failed: number }, [string, string]>(
    db,
    `SELECT
         (SELECT count(*)::int FROM jobs WHERE state = 'queued') AS queued,
         (SELECT count(*)::int FROM jobs WHERE state = 'queued' AND run_at <= ?) AS due,
         (SELECT count(*)::int FROM jobs WHERE state = 'running') AS running,
         (SELECT count(*)::int FROM jobs WHERE state = 'failed' AND updated_at >= ?) AS failed`,
  );
  // The parameter's type is named: `? IS NULL` alone gives PostgreSQL nothing to infer it from.
  const failed = postgresQuery<FailedJob, [string | null, string | null, number]>(
    db,
    RECENT_FAILED.replace("(? IS NULL", "(?::text IS NULL"),
  );
  return {
    oldestDueAt: async (now) => (await oldestDue.get(now))?.run_at ?? null,
    countsByKindAndState: () => counts.all(),
    runningPastLease: async (before) => (await overdue.get(before))?.n ?? 0,
    queueCounts: (now, since) => queue.get(now, since),
    recentFailed: (workspaceId, limit) => failed.all(workspaceId, workspaceId, limit),
  };
};

export const jobStatements = dialectStatements<JobStatements>({
  sqlite: sqliteJobStatements,
  postgres: postgresJobStatements,
});
