import type { Tx } from "../db/database";
import { appendEvent } from "../events/append";
import { importUpdated } from "./imports.events";
import type { ImportJson } from "./imports.schemas";
import type { ImportRow } from "./imports.table";

export function presentImport(row: ImportRow): ImportJson {
  return {
    id: row.id,
    source: row.source,
    status: row.status,
    progress: { phase: row.phase, done: row.done, total: row.total },
    counts: row.counts,
    errors: row.errors,
    started_at: row.startedAt,
    finished_at: row.finishedAt,
    created_at: row.createdAt,
  };
}

export const emitImportUpdated = (tx: Tx, row: ImportRow): void =>
  void appendEvent(tx, importUpdated, { workspaceId: row.workspaceId, data: { import: presentImport(row) } });
