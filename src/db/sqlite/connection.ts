import type { Database } from "bun:sqlite";
import type { BunSQLiteDatabase } from "drizzle-orm/bun-sqlite";

/**
 * The drizzle client over one bun:sqlite connection, with the desk's runtime given to it at start
 * (`R` is `Runtime`, src/db/runtime.ts: named by src/db/database.ts, which builds `Db` from this).
 */
export type SqliteDb<R> = BunSQLiteDatabase<Record<string, never>> & {
  $client: Database;
  $runtime: R;
  /** A read-only connection of the read pool (src/db/read-pool.ts): it writes nothing, not even the search staging flush. */
  $reader?: true;
};

/** A statement prepared on the connection, for the SQLite side of a statements file that keeps one in a variable. */
export type { Statement as SqliteStatement } from "bun:sqlite";
