import { first } from "../db/store";
import { existsSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { and, desc, eq, isNull, lt } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "../db/database";
import { transact } from "../db/tx";
import type { Deps } from "../deps";
import { defineJob, type JobContext } from "../jobs/define";
import type { Clock } from "../lib/clock";
import { newId } from "../lib/ids";
import type { Logger } from "../lib/logger";
import { backupRuns } from "./backups.table";

type BackupRun = typeof backupRuns.$inferSelect;

/** A run left `running` longer than this was cut short (the process died under it). */
const INTERRUPTED_AFTER_MS = 6 * 3_600_000;
/** Checked hourly, a daily backup must not slip by an hour a day: due this much before the interval ends. */
const SLACK_MS = 30 * 60_000;

/**
 * The command that runs `desk backup` as its own process: the executable itself, or Bun with
 * src/main.ts when running from source. A separate process keeps the copy's CPU and I/O off the
 * event loop that serves requests, and its memory off the server's.
 */
function backupCommand(file: string): string[] {
  // Inside the compiled executable, modules live under Bun's embedded "/$bunfs" root.
  const fromSource = !import.meta.dir.startsWith("/$bunfs");
  return fromSource
    ? [process.execPath, join(import.meta.dir, "..", "main.ts"), "backup", file]
    : [process.execPath, "backup", file];
}

const stamp = (clock: Clock) => clock.now().toISOString().replace(/[:.]/g, "-");

/** Takes one backup into the configured folder, records it, then applies retention. */
export async function takeBackup(
  deps: Pick<Deps, "db" | "config" | "clock">,
  trigger: BackupRun["trigger"],
  signal: AbortSignal,
  logger: Logger,
): Promise<BackupRun> {
  const { db, config, clock } = deps;
  await markInterrupted(db, clock);
  const file = join(config.backup.dir, `desk-${stamp(clock)}.tar.gz`);
  const run: BackupRun = {
    id: newId(),
    trigger,
    status: "running",
    file,
    sizeBytes: null,
    fileCount: null,
    error: null,
    startedAt: clock.now().toISOString(),
    finishedAt: null,
    prunedAt: null,
  };
  await transact(db, async (tx) => await tx.insert(backupRuns).values(run));
  const child = Bun.spawn(backupCommand(file), {
    env: {
      ...process.env,
      DESK_DATA_DIR: config.dataDir,
      DESK_LOG_LEVEL: "warn",
      // On PostgreSQL the command needs this desk's database and the secrets every node shares.
      ...(config.databaseUrl
        ? {
            DESK_DATABASE_URL: config.databaseUrl,
            DESK_SECRET: config.secret,
            DESK_INBOUND_SECRET: config.inboundSecret,
          }
        : {}),
    },
    stdout: "pipe",
    stderr: "pipe",
  });
  const kill = () => child.kill("SIGTERM");
  signal.addEventListener("abort", kill, { once: true });
  const [out, err, code] = await Promise.all([
    new Response(child.stdout).text(),
    new Response(child.stderr).text(),
    child.exited,
  ]).finally(() => signal.removeEventListener("abort", kill));
  const finishedAt = clock.now().toISOString();
  const files = /: (\d+) files/.exec(out)?.[1];
  const done: BackupRun =
    code === 0 && existsSync(file)
      ? {
          ...run,
          status: "succeeded",
          sizeBytes: statSync(file).size,
          fileCount: files ? Number(files) : null,
          finishedAt,
        }
      : { ...run, status: "failed", error: (err || out).trim().slice(0, 2_000) || `exit code ${code}`, finishedAt };
  await transact(db, async (tx) => await tx.update(backupRuns).set(done).where(eq(backupRuns.id, run.id)));
  if (done.status === "failed") logger.error({ file, error: done.error }, "scheduled backup failed");
  else logger.info({ file, bytes: done.sizeBytes }, "backup written");
  await prune(db, clock, config.backup.keep);
  return done;
}

async function markInterrupted(db: Db, clock: Clock): Promise<void> {
  const before = new Date(clock.now().getTime() - INTERRUPTED_AFTER_MS).toISOString();
  await transact(
    db,
    async (tx) =>
      await tx
        .update(backupRuns)
        .set({
          status: "failed",
          error: "interrupted: Desk stopped while it ran",
          finishedAt: clock.now().toISOString(),
        })
        .where(and(eq(backupRuns.status, "running"), lt(backupRuns.startedAt, before))),
  );
}

/** Deletes the archives of succeeded runs beyond the newest `keep`; only files Desk wrote itself. */
async function prune(db: Db, clock: Clock, keep: number): Promise<void> {
  const kept = await db
    .select()
    .from(backupRuns)
    .where(and(eq(backupRuns.status, "succeeded"), isNull(backupRuns.prunedAt)))
    .orderBy(desc(backupRuns.startedAt));
  for (const old of kept.slice(keep)) {
    rmSync(old.file, { force: true });
    await transact(
      db,
      async (tx) =>
        await tx.update(backupRuns).set({ prunedAt: clock.now().toISOString() }).where(eq(backupRuns.id, old.id)),
    );
  }
}

/** Whether the schedule wants a backup now: none succeeded yet, or the newest is an interval old. */
export async function backupDue(db: Db, clock: Clock, intervalMs: number | null): Promise<boolean> {
  if (intervalMs === null) return false;
  const last = first(
    await db
      .select({ startedAt: backupRuns.startedAt })
      .from(backupRuns)
      .where(eq(backupRuns.status, "succeeded"))
      .orderBy(desc(backupRuns.startedAt))
      .limit(1),
  );
  return !last || clock.now().getTime() - Date.parse(last.startedAt) >= intervalMs - SLACK_MS;
}

/** The newest runs, for the System page. */
export const recentBackupRuns = async (db: Db, limit = 10): Promise<BackupRun[]> =>
  await db.select().from(backupRuns).orderBy(desc(backupRuns.startedAt)).limit(limit);

/** Checks hourly whether a scheduled backup is due (DESK_BACKUP_INTERVAL) and takes it. */
export const scheduledBackupJob = defineJob({
  name: "backups.scheduled",
  schema: z.object({}).passthrough(),
  schedule: "7 * * * *",
  concurrency: 1,
  leaseMs: INTERRUPTED_AFTER_MS,
  retry: { maxAttempts: 1 },
  async handler(_payload, { deps, signal, logger }: JobContext<Deps>) {
    if (!(await backupDue(deps.db, deps.clock, deps.config.backup.intervalMs))) return;
    await takeBackup(deps, "schedule", signal, logger);
  },
});

/** A backup asked for on the System page. */
export const manualBackupJob = defineJob({
  name: "backups.manual",
  schema: z.object({}).passthrough(),
  concurrency: 1,
  leaseMs: INTERRUPTED_AFTER_MS,
  retry: { maxAttempts: 1 },
  async handler(_payload, { deps, signal, logger }: JobContext<Deps>) {
    await takeBackup(deps, "manual", signal, logger);
  },
});
