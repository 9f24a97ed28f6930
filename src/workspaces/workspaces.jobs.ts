import { z } from "zod";
import type { Queryable } from "../db/database";
import type { Deps } from "../deps";
import { removeAttachmentFilesOf } from "../attachments/attachments.public";
import { removeWorkspaceMail } from "../inbound/inbound.public";
import { eventSeqsSql } from "../events/events.sql";
import { defineJob, type JobContext } from "../jobs/define";
import { workspaceStatements } from "./workspaces.statements";

/**
 * Machinery tables that are not the workspace's data (the job queue holds this very job). Its event
 * counter stays with its row, as it did when it lived there: seqs never restart for a workspace.
 */
const KEPT_TABLES = new Set(["workspaces", "jobs", "__desk_migrations", eventSeqsSql.table]);
const BATCH = 2000;

/**
 * Removes every row a deleted workspace owned, in small batches so the one writer is never held
 * long. A table whose rows are still referenced (a foreign key without cascade) is retried after
 * the others; rows in child tables without workspace_id go with their parents' cascades.
 */
export async function purgeWorkspaceRows(db: Queryable, workspaceId: string): Promise<number> {
  const statements = workspaceStatements(db);
  let pending = (await statements.tablesWithWorkspaceId()).filter((table) => !KEPT_TABLES.has(table));
  let removed = 0;
  for (let round = 0; pending.length && round < 10; round++) {
    const blocked: string[] = [];
    for (const table of pending) {
      try {
        removed += await statements.purgeTable(table, workspaceId, BATCH);
      } catch {
        blocked.push(table);
      }
    }
    if (blocked.length === pending.length) throw new Error(`cannot purge ${blocked.join(", ")}: rows still referenced`);
    pending = blocked;
  }
  return removed;
}

export const purgeWorkspaceJob = defineJob({
  name: "workspaces.purge",
  schema: z.object({ workspace_id: z.string() }),
  concurrency: 1,
  async handler(payload, run: JobContext<Deps>) {
    const { deps } = run;
    // Files first, rows after: the workspace is already deleted, so nobody reads a row whose file is
    // gone, and a crash in between leaves the rows that list the files for the retry to remove
    // again. The other order would orphan the files for good.
    const files =
      (await removeAttachmentFilesOf(deps, payload.workspace_id)) +
      (await removeWorkspaceMail(deps, payload.workspace_id));
    const removed = await purgeWorkspaceRows(deps.db, payload.workspace_id);
    run.logger.info({ workspace_id: payload.workspace_id, removed, files }, "workspace data removed");
  },
});
