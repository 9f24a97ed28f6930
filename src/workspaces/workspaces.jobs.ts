import { z } from "zod";
import type { Database } from "bun:sqlite";
import type { Deps } from "../deps";
import { removeAttachmentFilesOf } from "../attachments/attachments.public";
import { removeWorkspaceMail } from "../inbound/inbound.public";
import { eventSeqsSql } from "../events/events.sql";
import { defineJob, type JobContext } from "../jobs/define";

/**
 * Machinery tables that are not the workspace's data (the job queue holds this very job). Its event
 * counter stays with its row, as it did when it lived there: seqs never restart for a workspace.
 */
const KEPT_TABLES = new Set(["workspaces", "jobs", "__desk_migrations", eventSeqsSql.table]);
const BATCH = 2000;

/** Every ordinary table with a `workspace_id` column, whichever feature owns it. */
async function tablesWithWorkspaceId(sqlite: Database): Promise<string[]> {
  const tables = sqlite
    .query<{ name: string; sql: string | null }, []>(
      "SELECT name, sql FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'",
    )
    .all()
    .filter((t) => !KEPT_TABLES.has(t.name) && !/^\s*CREATE\s+VIRTUAL/i.test(t.sql ?? ""));
  return tables
    .filter((t) =>
      sqlite
        .query<{ name: string }, []>(`SELECT name FROM pragma_table_info('${t.name.replaceAll("'", "''")}')`)
        .all()
        .some((c) => c.name === "workspace_id"),
    )
    .map((t) => t.name);
}

const withoutRowid = async (sqlite: Database, table: string): Promise<boolean> =>
  /\bWITHOUT\s+ROWID\s*;?\s*$/i.test(
    sqlite
      .query<{ sql: string }, [string]>("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?")
      .get(table)?.sql ?? "",
  );

/**
 * Removes every row a deleted workspace owned, in small batches so the one writer is never held
 * long. A table whose rows are still referenced (a foreign key without cascade) is retried after
 * the others; rows in child tables without workspace_id go with their parents' cascades.
 */
export async function purgeWorkspaceRows(sqlite: Database, workspaceId: string): Promise<number> {
  let pending = await tablesWithWorkspaceId(sqlite);
  let removed = 0;
  for (let round = 0; pending.length && round < 10; round++) {
    const blocked: string[] = [];
    for (const table of pending) {
      const quoted = `"${table.replaceAll('"', '""')}"`;
      try {
        if (await withoutRowid(sqlite, table)) {
          // Small keyed tables (per-workspace counters): no rowid to batch by, and no need to.
          removed += sqlite
            .query<unknown, [string]>(`DELETE FROM ${quoted} WHERE workspace_id = ?`)
            .run(workspaceId).changes;
          continue;
        }
        const batch = sqlite.query<unknown, [string, number]>(
          `DELETE FROM ${quoted} WHERE rowid IN (SELECT rowid FROM ${quoted} WHERE workspace_id = ? LIMIT ?)`,
        );
        for (;;) {
          const { changes } = batch.run(workspaceId, BATCH);
          removed += changes;
          if (changes < BATCH) break;
        }
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
    const removed = await purgeWorkspaceRows(deps.db.$client, payload.workspace_id);
    run.logger.info({ workspace_id: payload.workspace_id, removed, files }, "workspace data removed");
  },
});
