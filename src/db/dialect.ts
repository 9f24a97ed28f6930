import { type SQL, type SQLWrapper, sql } from "drizzle-orm";
import type { Queryable } from "./database";
import { assertOpen, dbOf } from "./tx";
import { type DatabaseEngine, processEngine } from "../config/engine";

/** The SQL engines Desk's statements are written for (DECISIONS.md "Past one machine"). */
export type Dialect = DatabaseEngine;

/** Which engine `db` runs on: the process's (src/config/engine.ts), as a process runs one. */
export const dialectOf = (_db: Queryable): Dialect => processEngine;

/** One implementation of a feature's statements per engine. */
export type DialectImplementations<T> = { sqlite: (db: Queryable) => T; postgres?: (db: Queryable) => T };

/**
 * A feature's statements where the engines' SQL differs (search, counters, cursors, the job claim,
 * date arithmetic, seq allocation): one interface `T` whose methods are async, one implementation
 * per dialect, built once per connection and chosen by the database it is asked with. Callers see
 * only `T` (docs/DEVELOPING.md "The store seam").
 */
export function dialectStatements<T extends object>(implementations: DialectImplementations<T>): (db: Queryable) => T {
  const built = new WeakMap<object, T>();
  return (db) => {
    // Statements outlive the handle they were asked with: a handle of an ended change may not use them.
    assertOpen(db);
    // A database and every transaction handle on it share one set of statements: on SQLite they
    // share one connection; on PostgreSQL the database's queries run in the change open in the
    // calling context (src/db/postgres/open.ts).
    const key = dbOf(db);
    let statements = built.get(key);
    if (!statements) {
      const build = implementations[dialectOf(db)];
      if (!build) throw new Error(`no ${dialectOf(db)} implementation of these statements`);
      // Built on the database, never on the transaction handle it was first asked with: a handle
      // refuses every query once its change has ended, and the statements outlive it.
      statements = build(dbOf(db));
      built.set(key, statements);
    }
    return statements;
  };
}

/**
 * A list parameter: `inListSql("t.id")` is the SQL of "column is one of the list", bound with
 * `listParam(values)` (the list as JSON text), one statement for any number of values (SQLite:
 * `IN (SELECT value FROM json_each(+?))`, the `+` as every comparison parameter gets
 * (src/db/sqlite/open.ts); PostgreSQL: `IN (SELECT jsonb_array_elements_text(?::text::jsonb))`: a parameter typed jsonb
 * would be JSON-encoded again by Bun's client, so it is bound as text and cast).
 */
export const inListSql = (column: string, dialect: Dialect = "sqlite"): string =>
  dialect === "postgres"
    ? `${column} IN (SELECT jsonb_array_elements_text(?::text::jsonb))`
    : `${column} IN (SELECT value FROM json_each(+?))`;

export const listParam = (values: readonly string[]): string => JSON.stringify(values);

/**
 * Building blocks of queries composed in a feature (drizzle `sql` fragments) whose text differs by
 * engine. A feature's own differing SQL goes in its `*.statements.ts`; these few are shared because
 * every area writes them.
 */
export type SqlParts = {
  /** ASCII case-insensitive `LIKE` with `\` escaping, as SQLite's `LIKE` is (PostgreSQL: `ILIKE`). */
  likeInsensitive(column: SQLWrapper, pattern: string): SQL;
  /** One top-level key of a JSON column, as text (SQLite: `json_extract(c, '$.key')`; PostgreSQL: `c ->> 'key'`). */
  jsonText(column: SQLWrapper, key: string): SQL;
};

const JSON_KEY = /^[A-Za-z_][A-Za-z0-9_]*$/;
const checkedKey = (key: string): string => {
  // The key is written into the SQL text (a path literal): only plain identifiers, never caller text.
  if (!JSON_KEY.test(key)) throw new Error(`not a JSON key: ${JSON.stringify(key)}`);
  return key;
};

export const sqlParts = dialectStatements<SqlParts>({
  sqlite: () => ({
    likeInsensitive: (column, pattern) => sql`${column} LIKE ${pattern} ESCAPE '\\'`,
    jsonText: (column, key) => sql`json_extract(${column}, ${sql.raw(`'$.${checkedKey(key)}'`)})`,
  }),
  postgres: () => ({
    likeInsensitive: (column, pattern) => sql`${column} ILIKE ${pattern} ESCAPE '\\'`,
    jsonText: (column, key) => sql`(${column} ->> ${sql.raw(`'${checkedKey(key)}'`)})`,
  }),
});
