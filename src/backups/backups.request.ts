import type { Deps } from "../deps";
import { withTx } from "../db/tx";
import { enqueue } from "../jobs/enqueue";
import { manualBackupJob } from "./backups.runs";

/** Queues a backup now; at most one waits at a time (asking twice while one waits queues nothing more). */
export function requestBackup(deps: Pick<Deps, "db">): void {
  withTx(deps.db, (tx) => enqueue(tx, manualBackupJob, {}, { uniqueKey: "backups.manual" }));
}
