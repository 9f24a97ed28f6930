import { SQL } from "bun";
import { drizzle } from "drizzle-orm/bun-sql";
import { activeChange } from "../change";
import type { PostgresDb } from "./connection";
import { deskClient } from "./client";

/** Connections one node keeps open at most: requests of one node share them (PostgreSQL's default limit is 100). */
const POOL_SIZE = 10;

/**
 * Opens the desk's PostgreSQL database: a pool of connections (Bun's `SQL`, connected lazily) under
 * drizzle's bun-sql driver, carrying the desk's `runtime` as `db.$runtime` like the SQLite file does.
 *
 * On SQLite every query runs on the one connection, so a function handed the database rather than
 * the `tx` still reads and writes inside the change that called it. On a pool it would take another
 * connection: outside the change, blind to its rows, and waiting on its locks. So the database's
 * session is the running change's while a change of this database is open in the calling context
 * (the same AsyncLocalStorage through which a nested `transact` joins it).
 */
export function openPostgres<R>(url: string, runtime: R, options: { max?: number } = {}): PostgresDb<R> {
  const pool = new SQL(url, { max: options.max ?? POOL_SIZE, idleTimeout: 30, connectionTimeout: 10 });
  const db = Object.assign(drizzle({ client: deskClient(pool) }), { $runtime: runtime }) as PostgresDb<R>;
  routeSessionThroughChange(db);
  return db;
}

type WithSession = { session: unknown };

function routeSessionThroughChange<R>(db: PostgresDb<R>): void {
  const pool = (db as unknown as WithSession).session;
  Object.defineProperty(db, "session", {
    get() {
      const change = activeChange.getStore();
      if (change?.pending && (change.db as unknown) === db) return (change.tx as unknown as WithSession).session;
      return pool;
    },
  });
}

/** Closes the pool (a CLI command's or a stopping desk's), waiting for queries in flight. */
export const closePostgres = async <R>(db: PostgresDb<R>): Promise<void> => {
  await db.$client.close({ timeout: 5 });
};
