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

export async function emitImportUpdated(tx: Tx, row: ImportRow): Promise<void> {
  await appendEvent(tx, importUpdated, { workspaceId: row.workspaceId, data: { import: presentImport(row) } });
}
