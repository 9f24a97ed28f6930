import { statfsSync } from "node:fs";
import pkg from "../../package.json" with { type: "json" };
import type { RequestContext } from "../auth/context";
import { recentBackupRuns } from "../backups/backups.public";
import type { Deps } from "../deps";
import { consumerLag } from "../events/consumers";
import { jobQueueStats, recentFailedJobs } from "../jobs/jobs.stats";
import { mailboxHealthOf } from "../mailboxes/mailboxes.public";
import { memberRoleOf } from "../members/members.public";
import { firstUserId } from "../identity/identity.public";
import type { SystemWire } from "./system.schemas";
import { systemStatements } from "./system.statements";

/**
 * The instance belongs to whoever set it up (the first person to register) and the owners and
 * admins of the workspaces that person owns: they see the machine (database, disk, job queue,
 * backups). Admins of other workspaces on a shared instance see only their own mailboxes and errors.
 */
export async function isOperator(ctx: RequestContext, deps: Pick<Deps, "db">): Promise<boolean> {
  if (ctx.actor.type !== "user") return false;
  const founder = await firstUserId(deps.db);
  if (!founder) return false;
  return ctx.actor.userId === founder || (await memberRoleOf(deps.db, ctx.workspaceId, founder)) === "owner";
}

export async function systemState(ctx: RequestContext, deps: Deps, startedAt: Date): Promise<SystemWire> {
  const operator = await isOperator(ctx, deps);
  const mailboxes = await mailboxHealthOf(deps.db, ctx.workspaceId);
  const errors: SystemWire["recent_errors"] = [
    ...mailboxes
      .filter((m) => m.status === "error")
      .map((m) => ({ source: "mailbox" as const, kind: m.email, error: m.lastError, at: m.lastSyncedAt ?? "" })),
    ...(await recentFailedJobs(deps.db, ctx.workspaceId)).map((j) => ({
      source: "job" as const,
      kind: j.kind,
      error: j.error,
      at: j.at,
    })),
  ];
  return {
    version: pkg.version,
    operator,
    instance: operator ? await instanceState(deps, startedAt) : null,
    mailboxes: mailboxes.map((m) => ({
      id: m.id,
      name: m.name,
      email: m.email,
      status: m.status,
      last_error: m.lastError,
      last_synced_at: m.lastSyncedAt,
    })),
    recent_errors: errors,
  };
}

async function instanceState(deps: Deps, startedAt: Date): Promise<NonNullable<SystemWire["instance"]>> {
  const { config, clock, db } = deps;
  const disk = statfsSync(config.dataDir);
  const size = await systemStatements(db).databaseSize(config.databasePath);
  return {
    started_at: startedAt.toISOString(),
    uptime_seconds: Math.max(0, Math.round((clock.now().getTime() - startedAt.getTime()) / 1000)),
    data_dir: config.dataDir,
    database_bytes: size.databaseBytes,
    wal_bytes: size.walBytes,
    free_disk_bytes: disk.bavail * disk.bsize,
    jobs: await jobQueueStats(db, clock),
    consumers: (await consumerLag(db, clock.now())).map((c) => ({
      name: c.name,
      events_behind: c.eventsBehind,
      seconds_behind: Math.round(c.secondsBehind),
    })),
    backups: {
      interval_seconds: config.backup.intervalMs === null ? null : Math.round(config.backup.intervalMs / 1000),
      keep: config.backup.keep,
      dir: config.backup.dir,
      runs: (await recentBackupRuns(db)).map((r) => ({
        id: r.id,
        trigger: r.trigger,
        status: r.status,
        file: r.file,
        size_bytes: r.sizeBytes,
        file_count: r.fileCount,
        error: r.error,
        started_at: r.startedAt,
        finished_at: r.finishedAt,
        pruned_at: r.prunedAt,
      })),
    },
  };
}
