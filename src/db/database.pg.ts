import type { SQL } from "bun";
import type { BunSQLDatabase } from "drizzle-orm/bun-sql";
import type { DeskRuntime, Frame as FrameOf, TxRuntime as TxRuntimeOf } from "./runtime";

/**
 * The database as shared code sees it on PostgreSQL: `bun run typecheck:pg` (tsconfig.pg.json)
 * resolves `./database` here, so every feature type-checks against PostgreSQL's drizzle types and
 * the tables' PostgreSQL builds (`*.table.pg.ts`). Same names as database.ts; no running code
 * loads this file.
 */
export type Db = BunSQLDatabase<Record<string, never>> & { $client: SQL; $runtime: Runtime; $reader?: true };
export type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];
export type Queryable = Db | Tx;
// Interfaces, not aliases: `Db` holds the runtime and the runtime holds `Db`, a cycle only a lazily
// resolved interface can close.
export interface Runtime extends DeskRuntime<Db, Tx> {}
export interface Frame extends FrameOf<Db, Tx> {}
export interface TxRuntime extends TxRuntimeOf<Db, Tx> {}
