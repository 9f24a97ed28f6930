import { type SQL, sql } from "drizzle-orm";
import type { Queryable } from "../database";
import { execute, first, rowsOf } from "../store";

/**
 * A hand-written statement for the PostgreSQL side of a statements file, shaped like bun:sqlite's
 * `query()` (`all`, `get`, `run`, each async): the text is written with `?` placeholders, as the
 * SQLite side's is (SQLite's planner hint `+?` is read as `?`), and every `?` becomes a bound
 * parameter (`$n`). It runs through the desk's database, so a call from inside a change runs in
 * that change's transaction (src/db/postgres/open.ts). Write a literal question mark in the SQL
 * as a parameter, never in the text.
 */
export type PostgresQuery<Row, Params extends readonly unknown[]> = {
  all(...params: Params): Promise<Row[]>;
  get(...params: Params): Promise<Row | null>;
  run(...params: Params): Promise<void>;
};

export function postgresQuery<Row, Params extends readonly unknown[] = []>(
  db: Queryable,
  text: string,
): PostgresQuery<Row, Params> {
  const parts = text.replace(/\+\?/g, "?").split("?");
  const bind = (params: Params): SQL => {
    if (params.length !== parts.length - 1)
      throw new Error(`statement takes ${parts.length - 1} parameter(s), given ${params.length}: ${text}`);
    const chunks: SQL[] = [sql.raw(parts[0]!)];
    params.forEach((value, i) => {
      chunks.push(sql`${value}`, sql.raw(parts[i + 1]!));
    });
    return sql.join(chunks);
  };
  return {
    all: (...params) => rowsOf<Row>(db, bind(params)),
    get: async (...params) => first(await rowsOf<Row>(db, bind(params))) ?? null,
    run: (...params) => execute(db, bind(params)),
  };
}
