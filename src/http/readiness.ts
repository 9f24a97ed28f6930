import type { Db } from "../db/database";
import { storageProblem } from "../db/storage";
import { oldestDueMs, runningPastLease } from "../jobs/jobs.stats";
import type { Clock } from "../lib/clock";
import { readinessStatements } from "./readiness.statements";

/**
 * GET /readyz: whether this Desk can do its work, for a load balancer or monitor (GET /healthz only
 * says the process answers). Not ready when the database refuses a write (disk full, read-only
 * file system, lost permissions), when the last write failed for lack of space and none has
 * succeeded since, or when the data dir's file system has less than MIN_FREE_BYTES free; or when
 * the job queue is stuck: a due job waiting past `queuedMs` (mail, webhooks and automations are late), or a running job past its lease by `leaseGraceMs`
 * (the runner aborts such runs, so one left over means the runner itself is stuck).
 */
export const READINESS_LIMITS = { queuedMs: 10 * 60_000, leaseGraceMs: 60_000 } as const;

export type ReadinessCheck = { ok: boolean; detail?: string };
export type Readiness = {
  ok: boolean;
  checks: {
    database: ReadinessCheck;
    jobs: ReadinessCheck & { oldest_due_seconds: number; overdue_running: number };
    mailboxes: ReadinessCheck & { failing: number };
  };
};

/** Mailboxes whose last connection failed (wired from the mailboxes' public file: machinery reads no feature table). */
export type FailingMailboxes = () =>
  | Array<{ email: string; lastError: string }>
  | Promise<Array<{ email: string; lastError: string }>>;

/**
 * A mailbox that cannot connect makes Desk not ready too: mail stops flowing in or out, which a
 * monitor should report. (Desk runs on one box: nothing takes it out of rotation for it.)
 */
export function createReadiness(
  db: Db,
  clock: Clock,
  failingMailboxes: FailingMailboxes = () => [],
  limits = READINESS_LIMITS,
): () => Promise<Readiness> {
  const statements = readinessStatements(db);
  // The file system holding the database (and, beside it, the data dir's files); ":memory:" has none.
  const dataDir = statements.databaseDir();

  async function database(): Promise<ReadinessCheck> {
    // A full disk can let this small probe through (it fits in WAL frames already allocated) while
    // every write needing new space fails, so the free space and the last real write count too.
    const full = dataDir ? storageProblem(db, dataDir) : null;
    if (full) return { ok: false, detail: full };
    try {
      await statements.probeWrite();
      return { ok: true };
    } catch (error) {
      return { ok: false, detail: `the database refused a write: ${(error as Error).message}` };
    }
  }

  async function jobs(): Promise<Readiness["checks"]["jobs"]> {
    const now = clock.now().getTime();
    const oldestDue = await oldestDueMs(db, clock.now());
    const overdueRunning = await runningPastLease(db, new Date(now - limits.leaseGraceMs).toISOString());
    const problems: string[] = [];
    if (oldestDue > limits.queuedMs)
      problems.push(`a due job has waited ${Math.round(oldestDue / 1000)} s (limit ${limits.queuedMs / 1000} s)`);
    if (overdueRunning > 0) problems.push(`${overdueRunning} running job(s) past their lease`);
    return {
      ok: problems.length === 0,
      ...(problems.length ? { detail: problems.join("; ") } : {}),
      oldest_due_seconds: Math.round(oldestDue / 1000),
      overdue_running: overdueRunning,
    };
  }

  async function mailboxes(): Promise<Readiness["checks"]["mailboxes"]> {
    const failing = await failingMailboxes();
    if (failing.length === 0) return { ok: true, failing: 0 };
    const named = failing.slice(0, 3).map((m) => `${m.email}: ${m.lastError || "connection failed"}`);
    return {
      ok: false,
      detail: `${failing.length} mailbox(es) failing: ${named.join("; ")}${failing.length > 3 ? "; …" : ""}`,
      failing: failing.length,
    };
  }

  return async () => {
    const checks = { database: await database(), jobs: await jobs(), mailboxes: await mailboxes() };
    return { ok: checks.database.ok && checks.jobs.ok && checks.mailboxes.ok, checks };
  };
}
