import type { Clock } from "../lib/clock";
import type { Db, Runtime } from "./database";
import type { PostgresMigration } from "./postgres/migrate";
import type { Migration } from "./sqlite/migrate";

// The engine's entry points with PostgreSQL's types, for `bun run typecheck:pg` (tsconfig.pg.json
// resolves `./engine` here); engine.ts implements them for both engines.

export type Lineages = { sqlite: Migration[]; postgres: PostgresMigration[] };
export declare function openDatabase(where: string, runtime: Runtime, options?: { readonly?: boolean }): Db;
export declare function migrateDatabase(
  db: Db,
  lineages: Lineages,
  options?: { snapshotDir?: string; clock?: Clock },
): Promise<string[]>;
export declare function optimizeDatabase(db: Db, atStart?: boolean): void;
export declare function closeDatabase(db: Db): Promise<void>;
