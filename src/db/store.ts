import type { SQL } from "drizzle-orm";
import type { Queryable } from "./database";
import { dialectStatements } from "./dialect";

/**
 * Helpers for the store calls both engines share: a drizzle builder is awaited for its rows, so the
 * first row of a select and the row an insert … returning() gave are read from that list.
 */
export const first = <T>(rows: readonly T[]): T | undefined => rows[0];

/** The row a write … returning() gave (it wrote exactly one). */
export const one = <T>(rows: readonly T[]): T => rows[0] as T;

/**
 * Statements no builder writes, as a drizzle `sql` template: values go in as `${value}`, never
 * spliced into the text, so drizzle binds them and the PostgreSQL twin renders the same template
 * with `$1`, `$2` (through `db.execute`, whose answer holds the rows).
 */
type RawStatements = {
  rows<T>(query: SQL): Promise<T[]>;
  execute(query: SQL): Promise<void>;
};

/** PostgreSQL's drizzle client runs a raw statement with `execute`. */
type PostgresRunner = { execute(query: SQL): Promise<readonly unknown[]> };

/** The SQLite drizzle database's own runners of a raw statement (it has no `execute`). */
type SqliteRunners = { all<T>(query: SQL): T[]; run(query: SQL): unknown };

const rawStatements = dialectStatements<RawStatements>({
  sqlite: (db) => {
    // dialectStatements picked this implementation because `db` is a SQLite database; the type
    // check of the PostgreSQL build (tsconfig.pg.json) types every Queryable as PostgreSQL's.
    const sqlite = db as unknown as SqliteRunners;
    return {
      rows: async <T>(query: SQL) => sqlite.all<T>(query),
      execute: async (query) => {
        sqlite.run(query);
      },
    };
  },
  postgres: (db) => {
    // PostgreSQL's drizzle client answers `execute` with the rows (Bun's SQL result is an array).
    const pg = db as unknown as PostgresRunner;
    return {
      rows: async <T>(query: SQL) => [...(await pg.execute(query))] as T[],
      execute: async (query) => {
        await pg.execute(query);
      },
    };
  },
});

/** The rows of a raw statement (see RawStatements), as plain objects keyed by column name. */
export const rowsOf = async <T>(db: Queryable, query: SQL): Promise<T[]> => await rawStatements(db).rows<T>(query);

/** Runs a raw statement (see RawStatements) for its effect only. */
export const execute = async (db: Queryable, query: SQL): Promise<void> => await rawStatements(db).execute(query);
