import type { Queryable } from "../db/database";
import { preparedFor } from "../db/prepared";
import { importMappings, type ImportMappingRow, type ImportSourceName } from "./imports.table";

/** The account whose records a run maps: a re-run of the same account finds what the last one made. */
export type MappingScope = { workspaceId: string; source: ImportSourceName; account: string };

const m = importMappings;
type RawMapping = { desk_id: string; source_updated_at: string | null; data: string | null };

/** Read for every record of every page: prepared once per connection (drizzle builds SQL text per call). */
const statements = preparedFor((sqlite) => ({
  get: sqlite.query<RawMapping, [string, string, string, string, string]>(
    `SELECT ${m.deskId.name} AS desk_id, ${m.sourceUpdatedAt.name} AS source_updated_at, ${m.data.name} AS data FROM import_mappings
     WHERE ${m.workspaceId.name} = ? AND ${m.source.name} = ? AND ${m.account.name} = ? AND ${m.kind.name} = ? AND ${m.sourceId.name} = ?`,
  ),
  save: sqlite.query<unknown, [string, string, string, string, string, string, string | null, string | null]>(
    `INSERT INTO import_mappings (${m.workspaceId.name}, ${m.source.name}, ${m.account.name}, ${m.kind.name}, ${m.sourceId.name}, ${m.deskId.name}, ${m.sourceUpdatedAt.name}, ${m.data.name})
     VALUES (?, ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT DO UPDATE SET ${m.deskId.name} = excluded.${m.deskId.name}, ${m.sourceUpdatedAt.name} = excluded.${m.sourceUpdatedAt.name}, ${m.data.name} = excluded.${m.data.name}`,
  ),
}));

export type Mapping = Pick<ImportMappingRow, "deskId" | "sourceUpdatedAt" | "data">;

export async function mappingOf(
  db: Queryable,
  scope: MappingScope,
  kind: string,
  sourceId: string,
): Promise<Mapping | undefined> {
  const row = statements(db).get.get(scope.workspaceId, scope.source, scope.account, kind, sourceId);
  if (!row) return undefined;
  return {
    deskId: row.desk_id,
    sourceUpdatedAt: row.source_updated_at,
    data: row.data === null ? null : (JSON.parse(row.data) as Record<string, unknown>),
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
  statements(db).save.run(
    scope.workspaceId,
    scope.source,
    scope.account,
    row.kind,
    row.sourceId,
    row.deskId,
    row.sourceUpdatedAt,
    row.data ? JSON.stringify(row.data) : null,
  );
}

/** Unchanged since the last run: the source's updated_at is not newer than the one recorded. */
export const unchanged = (mapping: Mapping | undefined, updatedAt: string): boolean =>
  !!mapping && !!mapping.sourceUpdatedAt && updatedAt !== "" && mapping.sourceUpdatedAt >= updatedAt;
