import type { Database } from "bun:sqlite";
import type { Queryable } from "../database";
import type { SqliteDb } from "./connection";

/**
 * The bun:sqlite connection under a database or an open transaction. A transaction runs on its
 * database's one connection, so a statement prepared on the connection runs inside it.
 */
export function sqliteOf(db: Queryable): Database {
  // Only SQLite code asks (the embedded engine's own files and the SQLite side of dialect
  // statements, chosen by `dialectOf`), so the client is bun:sqlite's; under the PostgreSQL type
  // check `Queryable` is that engine's, which is why the client is read without its static type.
  const handle = db as unknown as { $client?: Database; session?: { client?: Database } };
  if (handle.$client) return handle.$client;
  const client = handle.session?.client;
  if (!client) throw new Error("no SQLite connection behind this query runner");
  return client;
}

/**
 * Statements built once per connection, for hot paths: drizzle builds the SQL text of every call
 * in JS (sql.js, mergeQueries, escapeName), which costs more than running these small queries.
 * `build` prepares the statements lazily on first use of each connection; it also gets the database
 * or transaction it was first asked with, for drizzle's own `.prepare()`. Comparison parameters
 * are written `= +?` by src/db/database.ts for every statement (a bare `?` makes this SQLite re-plan
 * on every run); writing `+?` by hand is harmless and changes nothing.
 */
export function preparedFor<T>(build: (sqlite: Database, db: Queryable) => T): (db: Queryable) => T {
  const byConnection = new WeakMap<Database, T>();
  return (db) => {
    const sqlite = sqliteOf(db);
    let statements = byConnection.get(sqlite);
    if (!statements) {
      statements = build(sqlite, db);
      byConnection.set(sqlite, statements);
    }
    return statements;
  };
}

/**
 * The drizzle client under a database or transaction handle, typed for SQLite: for the SQLite side
 * of dialect statements that keep drizzle's SQLite-only API (a `.prepare()`d select with its row
 * mapping), used with the tables' SQLite builds (`<table>Table.sqlite` from a `*.definition.ts`),
 * so the code type-checks the same under the PostgreSQL check, where `Queryable` is PostgreSQL's.
 */
export const sqliteDrizzleOf = (db: Queryable): SqliteDb<unknown> => db as unknown as SqliteDb<unknown>;
