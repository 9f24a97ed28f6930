import type { Clock } from "../lib/clock";
import type { Db, Runtime } from "./database";
import type { Migration } from "./sqlite/migrate";

// The engine's entry points with PostgreSQL's types, for `bun run typecheck:pg` (tsconfig.pg.json
// resolves `./engine` here). Declared only: their PostgreSQL implementation comes with the next step
// (DECISIONS.md "Past one machine"), and no running code loads this file.

export declare function openDatabase(url: string, runtime: Runtime, options?: { readonly?: boolean }): Db;
export declare function migrateDatabase(
  db: Db,
  migrations: Migration[],
  options?: { snapshotDir?: string; clock?: Clock },
): string[];
export declare function optimizeDatabase(db: Db, atStart?: boolean): void;
export declare function closeDatabase(db: Db): void;
