import { z } from "zod";
import type { Database } from "bun:sqlite";
import type { Deps } from "../deps";
import { defineJob } from "../jobs/define";
import { PURGE_WORKSPACE_JOB } from "./workspaces.service";

/** Machinery tables that are not the workspace's data (the job queue holds this very job). */
const KEPT_TABLES = new Set(["workspaces", "jobs", "__desk_migrations"]);
const BATCH = 2000;

/** Every ordinary table with a `workspace_id` column, whichever feature owns it. */
function tablesWithWorkspaceId(sqlite: Database): string[] {
  const tables = sqlite
    .query<{ name: string; sql: string | null }, []>("SELECT name, sql FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
    .all()
    .filter((t) => !KEPT_TABLES.has(t.name) && !/^\s*CREATE\s+VIRTUAL/i.test(t.sql ?? ""));
  return tables
    .filter((t) => sqlite.query<{ name: string }, []>(`SELECT name FROM pragma_table_info('${t.name.replaceAll("'", "''")}')`).all().some((c) => c.name === "workspace_id"))
    .map((t) => t.name);
}

/**
 * Removes every row a deleted workspace owned, in small batches so the one writer is never held
 * long. A table whose rows are still referenced (a foreign key without cascade) is retried after
 * the others; rows in child tables without workspace_id go with their parents' cascades.
 */
export function purgeWorkspaceRows(sqlite: Database, workspaceId: string): number {
  let pending = tablesWithWorkspaceId(sqlite);
  let removed = 0;
  for (let round = 0; pending.length && round < 10; round++) {
    const blocked: string[] = [];
    for (const table of pending) {
      const quoted = `"${table.replaceAll('"', '""')}"`;
      const batch = sqlite.query<unknown, [string, number]>(`DELETE FROM ${quoted} WHERE rowid IN (SELECT rowid FROM ${quoted} WHERE workspace_id = ? LIMIT ?)`);
      try {
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

export const purgeWorkspaceJob = (deps: Deps) =>
  defineJob({
    name: PURGE_WORKSPACE_JOB,
    schema: z.object({ workspace_id: z.string() }),
    concurrency: 1,
    handler(payload, run) {
      const removed = purgeWorkspaceRows(deps.db.$client, payload.workspace_id);
      run.logger.info({ workspace_id: payload.workspace_id, removed }, "workspace data removed");
    },
  });
