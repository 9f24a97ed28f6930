import type { Deps } from "../deps";
import { transact } from "../db/tx";
import { enqueue } from "../jobs/enqueue";
import { manualBackupJob } from "./backups.runs";

/** Queues a backup now; at most one waits at a time (asking twice while one waits queues nothing more). */
export async function requestBackup(deps: Pick<Deps, "db">): Promise<void> {
  await transact(deps.db, async (tx) => await enqueue(tx, manualBackupJob, {}, { uniqueKey: "backups.manual" }));
}
