import { sql, type SQL, type SQLWrapper } from "drizzle-orm";
import type { Queryable } from "../db/database";
import { dialectStatements } from "../db/dialect";
import { preparedFor } from "../db/sqlite/prepared";

/**
 * The full-text indexes (migrations/custom/0100, 0101, 0105): FTS5 tables keyed by the rowids of
 * their owners' rows. Other folders name an index through this object, never by its table name,
 * and join the hits to their own rows.
 */
export const ftsIndexes = {
  ticketSubjects: "ticket_search",
  messageBodies: "message_search",
  fieldValues: "field_value_search",
  contacts: "contact_search",
  companies: "company_search",
} as const;
export type FtsIndex = (typeof ftsIndexes)[keyof typeof ftsIndexes];

/**
 * What full-text search writes differently per engine. This interface is about composing SQL, so
 * its fragment methods answer drizzle `SQL` the owners of the rows join to their own tables. A
 * PostgreSQL twin keeps a generated `tsvector` column with a GIN index per index (so nothing is
 * staged and `flushStaged` does nothing) and names hits by the owner's id rather than a rowid (a
 * single writer's insertion order), builds the expression as a `to_tsquery`/
 * `websearch_to_tsquery` (`:*` for a prefix) matched with `@@`, ranks with `ts_rank` (bigger is
 * better: negate it) and highlights with `ts_headline`.
 */
export type SearchDialect = {
  /** The match expression of `terms` (the last one a prefix when `prefixLast`) limited to `columns`. */
  matchExpression(terms: readonly string[], prefixLast: boolean, columns: readonly string[]): string;
  /** How many messages hold `term` as a whole word, counted up to `cap` (the cost bounded by the cap). */
  messageTermDocs(term: string, cap: number): Promise<number>;
  /** The key by which hits name a row of the index's owner: `row` is its table or an alias of it. */
  hitKeySql(row: SQLWrapper): SQL;
  /** Rowids of the index's newest `cap` hits of `match`. */
  rowidsSql(index: FtsIndex, match: string, cap: number): SQL;
  /** The index's newest `cap` hits of `match` as `rid` (the owner's rowid) and `score`. */
  scoredHitsSql(index: FtsIndex, match: string, cap: number, score: SQL): SQL;
  /** The relevance of a hit of the index (lower is better), one weight per column, for `score`. */
  rankSql(index: FtsIndex, weights: string): SQL;
  /** Moves staged documents into their indexes; synchronous, as a pre-commit hook's failure must fail the commit. */
  flushStaged(): void;
};

type SearchFragments = Pick<SearchDialect, "matchExpression" | "hitKeySql" | "rowidsSql" | "scoredHitsSql" | "rankSql">;

/**
 * SQLite's fragments need no connection: FTS5 walks rowids newest first and stops early at the
 * LIMIT, and bm25 is an auxiliary function of the FTS5 table.
 */
const sqliteSearchSql: SearchFragments = {
  matchExpression: (terms, prefixLast, columns) => {
    const last = terms.length - 1;
    const phrase = terms.map((t, i) => (i === last && prefixLast ? `"${t}"*` : `"${t}"`)).join(" ");
    return `{${columns.join(" ")}} : (${phrase})`;
  },
  hitKeySql: (row) => sql`${row}.rowid`,
  rowidsSql: (index, match, cap) =>
    sql`SELECT rowid FROM ${sql.raw(index)} WHERE ${sql.raw(index)} MATCH ${match} ORDER BY rowid DESC LIMIT ${cap}`,
  scoredHitsSql: (index, match, cap, score) =>
    sql`SELECT rowid AS rid, ${score} AS score FROM ${sql.raw(index)} WHERE ${sql.raw(index)} MATCH ${match} ORDER BY rowid DESC LIMIT ${cap}`,
  rankSql: (index, weights) => sql.raw(`bm25(${index}, ${weights})`),
};

const termDocsStatement = preparedFor((sqlite) =>
  sqlite.query<{ n: number }, [string, number]>(
    "SELECT count(*) AS n FROM (SELECT 1 FROM message_search WHERE message_search MATCH ? LIMIT ?)",
  ),
);

/**
 * New ticket subjects and message texts are staged by triggers (migrations/custom/0103) and moved
 * into the FTS5 indexes in bulk.
 */
const flushStatements = preparedFor((sqlite) => [
  sqlite.prepare(
    "INSERT INTO ticket_search (rowid, ws, subject) SELECT row_ref, ws, subject FROM search_staging_tickets",
  ),
  sqlite.prepare("DELETE FROM search_staging_tickets"),
  sqlite.prepare("INSERT INTO message_search (rowid, ws, body) SELECT row_ref, ws, body FROM search_staging_messages"),
  sqlite.prepare("DELETE FROM search_staging_messages"),
]);

/** Statements of the connection, taken while `db` is live: the handle may be a transaction that ends. */
const sqliteSearch = (db: Queryable): SearchDialect => {
  const termDocs = termDocsStatement(db);
  const flush = flushStatements(db);
  return {
    ...sqliteSearchSql,
    messageTermDocs: async (term, cap) => termDocs.get(`{body} : "${term}"`, cap)?.n ?? 0,
    flushStaged: () => {
      for (const statement of flush) statement.run();
    },
  };
};

export const searchStatements = dialectStatements<SearchDialect>({ sqlite: sqliteSearch });
