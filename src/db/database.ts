import type { Runtime } from "./runtime";
import { sqliteOf } from "./sqlite/prepared";
import type { SqliteDb } from "./sqlite/connection";
import { type Migration, migrate } from "./sqlite/migrate";
import { openSqlite, optimizeSqlite } from "./sqlite/open";
import type { Clock } from "../lib/clock";

/**
 * The database as shared code sees it. This file is the embedded engine's build (SQLite, src/db/sqlite/);
 * `database.pg.ts` is PostgreSQL's, which `bun run typecheck:pg` checks every feature against
 * (docs/DEVELOPING.md "The store seam"). Both export the same names.
 */
export type Db = SqliteDb<Runtime>;
export type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];
/** What a read can run on: the database or an open transaction. */
export type Queryable = Db | Tx;

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
