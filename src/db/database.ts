import type { DeskRuntime, Frame as FrameOf, TxRuntime as TxRuntimeOf } from "./runtime";
import type { SqliteDb } from "./sqlite/connection";

/**
 * The database as shared code sees it. This file is the embedded engine's build (SQLite, src/db/sqlite/);
 * `database.pg.ts` is PostgreSQL's, which `bun run typecheck:pg` checks every feature against
 * (docs/DEVELOPING.md "The store seam"). Both export the same names; the engine's entry points
 * (open, migrate, optimize, close) are in engine.ts and engine.pg.ts.
 */
export type Db = SqliteDb<Runtime>;
export type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];
/** What a read can run on: the database or an open transaction. */
export type Queryable = Db | Tx;
// Interfaces, not aliases: `Db` holds the runtime and the runtime holds `Db`, a cycle only a lazily
// resolved interface can close.
/** The state one desk shares (src/db/runtime.ts), reached as `db.$runtime`. */
export interface Runtime extends DeskRuntime<Db, Tx> {}
/** One change in progress (src/db/tx.ts). */
export interface Frame extends FrameOf<Db, Tx> {}
export interface TxRuntime extends TxRuntimeOf<Db, Tx> {}
