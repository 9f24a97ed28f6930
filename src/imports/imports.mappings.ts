import type { Queryable } from "../db/database";
import { importStatements } from "./imports.statements";
import type { ImportMappingRow, ImportSourceName } from "./imports.table";

/** The account whose records a run maps: a re-run of the same account finds what the last one made. */
export type MappingScope = { workspaceId: string; source: ImportSourceName; account: string };

export type Mapping = Pick<ImportMappingRow, "deskId" | "sourceUpdatedAt" | "data">;

export async function mappingOf(
  db: Queryable,
  scope: MappingScope,
  kind: string,
  sourceId: string,
): Promise<Mapping | undefined> {
  const row = await importStatements(db).mapping({ ...scope, kind, sourceId });
  if (!row) return undefined;
  return {
    deskId: row.deskId,
    sourceUpdatedAt: row.sourceUpdatedAt,
    data: row.dataJson === null ? null : (JSON.parse(row.dataJson) as Record<string, unknown>),
  };
}

export async function saveMapping(
  db: Queryable,
  scope: MappingScope,
  row: {
    kind: string;
    sourceId: string;
    deskId: string;
    sourceUpdatedAt: string | null;
    data?: Record<string, unknown> | null;
  },
): Promise<void> {
  await importStatements(db).saveMapping(
    { ...scope, kind: row.kind, sourceId: row.sourceId },
    { deskId: row.deskId, sourceUpdatedAt: row.sourceUpdatedAt, dataJson: row.data ? JSON.stringify(row.data) : null },
  );
}

/** Unchanged since the last run: the source's updated_at is not newer than the one recorded. */
export const unchanged = (mapping: Mapping | undefined, updatedAt: string): boolean =>
  !!mapping && !!mapping.sourceUpdatedAt && updatedAt !== "" && mapping.sourceUpdatedAt >= updatedAt;
