import type { SQL } from "bun";
import type { BunSQLDatabase } from "drizzle-orm/bun-sql";

/**
 * The drizzle client over a pool of PostgreSQL connections (Bun's `SQL`), with the desk's runtime
 * given to it at start (`R` is `Runtime`, src/db/runtime.ts; src/db/database.pg.ts builds `Db` from this).
 */
export type PostgresDb<R> = BunSQLDatabase<Record<string, never>> & {
  $client: SQL;
  $runtime: R;
  $reader?: true;
};
