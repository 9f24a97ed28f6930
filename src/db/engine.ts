import { isPostgresUrl, processEngine } from "../config/engine";
import type { Clock } from "../lib/clock";
import type { Db, Runtime } from "./database";
import type { PostgresDb } from "./postgres/connection";
import { type PostgresMigration, migratePostgresDb } from "./postgres/migrate";
import { closePostgres, openPostgres } from "./postgres/open";
import { type Migration, migrate } from "./sqlite/migrate";
import { openSqlite, optimizeSqlite } from "./sqlite/open";
import { sqliteOf } from "./sqlite/prepared";

// The engine's entry points, which the root files and CLI commands call: SQLite (src/db/sqlite/)
// or PostgreSQL (src/db/postgres/), whichever this process runs on (src/config/engine.ts);
// engine.pg.ts declares the same names with PostgreSQL's types.

/** Both lineages of migrations (migrations/lineages.ts): the engine applies its own. */
export type Lineages = { sqlite: Migration[]; postgres: PostgresMigration[] };

const ON_POSTGRES = processEngine === "postgres";
// The declared types are SQLite's (database.ts) or PostgreSQL's (database.pg.ts), one per type check.
const asPostgres = (db: Db) => db as unknown as PostgresDb<Runtime>;

/**
 * Opens the desk's database: the SQLite file at `where` (a path), or the PostgreSQL database `where`
 * names (a postgres:// URL, DESK_DATABASE_URL), carrying the desk's `runtime` (`createRuntime()`,
 * src/db/runtime.ts) as `db.$runtime`.
 */
export function openDatabase(where: string, runtime: Runtime, options: { readonly?: boolean } = {}): Db {
  if (isPostgresUrl(where) !== ON_POSTGRES)
    throw new Error(
      `this process runs on ${processEngine}: DESK_DATABASE_URL must be set in its environment before it starts to run on PostgreSQL, and unset to run on the SQLite file`,
    );
  if (ON_POSTGRES) return openPostgres(where, runtime) as unknown as Db;
  return openSqlite(where, runtime, options);
}

/** Applies the migrations of the engine's lineage not applied yet, answering the tags it applied. */
export async function migrateDatabase(
  db: Db,
  lineages: Lineages,
  options: { snapshotDir?: string; clock?: Clock } = {},
): Promise<string[]> {
  if (ON_POSTGRES) return await migratePostgresDb(asPostgres(db), lineages.postgres, options);
  return migrate(sqliteOf(db), lineages.sqlite, options);
}

/** Keeps the query planner's statistics fresh: after migrations and then hourly (PostgreSQL's autovacuum does it there). */
export const optimizeDatabase = (db: Db, atStart = false): void => {
  if (!ON_POSTGRES) optimizeSqlite(sqliteOf(db), atStart);
};

/** Closes the connection (a CLI command's or a stopping desk's). */
export async function closeDatabase(db: Db): Promise<void> {
  if (ON_POSTGRES) await closePostgres(asPostgres(db));
  else sqliteOf(db).close();
}
