import type { SQL } from "bun";
import type { BunSQLDatabase } from "drizzle-orm/bun-sql";
import type { Clock } from "../lib/clock";
import type { Runtime } from "./runtime";
import type { Migration } from "./sqlite/migrate";

/**
 * The database as shared code sees it on PostgreSQL: `bun run typecheck:pg` (tsconfig.pg.json)
 * resolves `./database` here, so every feature type-checks against PostgreSQL's drizzle types and
 * the tables' PostgreSQL builds (`*.table.pg.ts`). Same names as database.ts; the functions are
 * declared only: their PostgreSQL implementation comes with the next step (DECISIONS.md "Past one
 * machine"), and no running code loads this file.
 */
export type Db = BunSQLDatabase<Record<string, never>> & { $client: SQL; $runtime: Runtime; $reader?: true };
export type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];
export type Queryable = Db | Tx;

export declare function openDatabase(url: string, runtime: Runtime, options?: { readonly?: boolean }): Db;
export declare function migrateDatabase(
  db: Db,
  migrations: Migration[],
  options?: { snapshotDir?: string; clock?: Clock },
): string[];
export declare function optimizeDatabase(db: Db, atStart?: boolean): void;
export declare function closeDatabase(db: Db): void;
