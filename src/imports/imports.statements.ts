import type { Queryable } from "../db/database";
import { dialectStatements } from "../db/dialect";
import { postgresQuery } from "../db/postgres/query";
import { sqliteOf } from "../db/sqlite/prepared";
import { importMappings } from "./imports.table";

/** One record of a source account, as its mapping is keyed. */
export type MappingKey = { workspaceId: string; source: string; account: string; kind: string; sourceId: string };

/** A stored mapping as read: the Desk record, the source's updated_at and the data kept with it (JSON). */
export type StoredMapping = { deskId: string; sourceUpdatedAt: string | null; dataJson: string | null };

/**
 * The import mappings' statements, read and written for every record of every page: prepared once
 * per connection (drizzle builds SQL text per call); column names come from the table definition.
 * PostgreSQL's twin names the conflict target of the upsert (`ON CONFLICT (workspace_id, source,
 * account, kind, source_id) DO UPDATE`), which SQLite lets the statement leave out.
 */
export interface ImportStatements {
  /** The mapping of one source record, or undefined when none was made. */
  mapping(key: MappingKey): Promise<StoredMapping | undefined>;
  /** Stores the mapping of one source record, replacing the one made before. */
  saveMapping(key: MappingKey, mapping: StoredMapping): Promise<void>;
}

const m = importMappings;
type RawMapping = { desk_id: string; source_updated_at: string | null; data: string | null };

const sqliteImportStatements = (db: Queryable): ImportStatements => {
  const sqlite = sqliteOf(db);
  const get = sqlite.query<RawMapping, [string, string, string, string, string]>(
    `SELECT ${m.deskId.name} AS desk_id, ${m.sourceUpdatedAt.name} AS source_updated_at, ${m.data.name} AS data FROM import_mappings
     WHERE ${m.workspaceId.name} = ? AND ${m.source.name} = ? AND ${m.account.name} = ? AND ${m.kind.name} = ? AND ${m.sourceId.name} = ?`,
  );
  const save = sqlite.query<unknown, [string, string, string, string, string, string, string | null, string | null]>(
    `INSERT INTO import_mappings (${m.workspaceId.name}, ${m.source.name}, ${m.account.name}, ${m.kind.name}, ${m.sourceId.name}, ${m.deskId.name}, ${m.sourceUpdatedAt.name}, ${m.data.name})
     VALUES (?, ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT DO UPDATE SET ${m.deskId.name} = excluded.${m.deskId.name}, ${m.sourceUpdatedAt.name} = excluded.${m.sourceUpdatedAt.name}, ${m.data.name} = excluded.${m.data.name}`,
  );
  return {
    mapping: async (k) => {
      const row = get.get(k.workspaceId, k.source, k.account, k.kind, k.sourceId);
      return row ? { deskId: row.desk_id, sourceUpdatedAt: row.source_updated_at, dataJson: row.data } : undefined;
    },
    saveMapping: async (k, mapping) => {
      save.run(
        k.workspaceId,
        k.source,
        k.account,
        k.kind,
        k.sourceId,
        mapping.deskId,
        mapping.sourceUpdatedAt,
        mapping.dataJson,
      );
    },
  };
};

/**
 * PostgreSQL: `data` is jsonb, read back as its text (`::text`, which JSON.parse reads alike) and
 * written from JSON text (`::text::jsonb`: a bare jsonb parameter would store the text as a JSON string).
 */
const postgresImportStatements = (db: Queryable): ImportStatements => {
  const get = postgresQuery<RawMapping, [string, string, string, string, string]>(
    db,
    `SELECT ${m.deskId.name} AS desk_id, ${m.sourceUpdatedAt.name} AS source_updated_at, ${m.data.name}::text AS data FROM import_mappings
     WHERE ${m.workspaceId.name} = ? AND ${m.source.name} = ? AND ${m.account.name} = ? AND ${m.kind.name} = ? AND ${m.sourceId.name} = ?`,
  );
  const save = postgresQuery<unknown, [string, string, string, string, string, string, string | null, string | null]>(
    db,
    `INSERT INTO import_mappings (${m.workspaceId.name}, ${m.source.name}, ${m.account.name}, ${m.kind.name}, ${m.sourceId.name}, ${m.deskId.name}, ${m.sourceUpdatedAt.name}, ${m.data.name})
     VALUES (?, ?, ?, ?, ?, ?, ?, ?::text::jsonb)
     ON CONFLICT (${m.workspaceId.name}, ${m.source.name}, ${m.account.name}, ${m.kind.name}, ${m.sourceId.name})
     DO UPDATE SET ${m.deskId.name} = excluded.${m.deskId.name}, ${m.sourceUpdatedAt.name} = excluded.${m.sourceUpdatedAt.name}, ${m.data.name} = excluded.${m.data.name}`,
  );
  return {
    mapping: async (k) => {
      const row = await get.get(k.workspaceId, k.source, k.account, k.kind, k.sourceId);
      return row ? { deskId: row.desk_id, sourceUpdatedAt: row.source_updated_at, dataJson: row.data } : undefined;
    },
    saveMapping: (k, mapping) =>
      save.run(
        k.workspaceId,
        k.source,
        k.account,
        k.kind,
        k.sourceId,
        mapping.deskId,
        mapping.sourceUpdatedAt,
        mapping.dataJson,
      ),
  };
};

export const importStatements = dialectStatements<ImportStatements>({
  sqlite: sqliteImportStatements,
  postgres: postgresImportStatements,
});
