import type { Clock } from "../lib/clock";
import type { Db, Runtime } from "./database";
import { type Migration, migrate } from "./sqlite/migrate";
import { openSqlite, optimizeSqlite } from "./sqlite/open";
import { sqliteOf } from "./sqlite/prepared";

// The engine's entry points, which the root files and CLI commands call: this file builds them on
// SQLite (src/db/sqlite/); engine.pg.ts declares the same names with PostgreSQL's types.

/**
 * Opens the desk's database: the one SQLite file at `path` (src/db/sqlite/open.ts), carrying the
 * desk's `runtime` (`createRuntime()`, src/db/runtime.ts) as `db.$runtime`.
 */
export const openDatabase = (path: string, runtime: Runtime, options: { readonly?: boolean } = {}): Db =>
  openSqlite(path, runtime, options);

/** Applies the migrations this build embeds (SQLite lineage), answering the tags it applied. */
export const migrateDatabase = (
  db: Db,
  migrations: Migration[],
  options: { snapshotDir?: string; clock?: Clock } = {},
): string[] => migrate(sqliteOf(db), migrations, options);

/** Keeps the query planner's statistics fresh: after migrations and then hourly. */
export const optimizeDatabase = (db: Db, atStart = false): void => optimizeSqlite(sqliteOf(db), atStart);

/** Closes the connection (a CLI command's or a stopping desk's). */
export const closeDatabase = (db: Db): void => sqliteOf(db).close();
