import { sql, type SQL, type SQLWrapper } from "drizzle-orm";
import type { Queryable } from "../db/database";
import { dialectStatements } from "../db/dialect";
import { postgresQuery } from "../db/postgres/query";
import { preparedFor } from "../db/sqlite/prepared";

/**
 * The full-text indexes (migrations/custom/0100, 0101, 0105): FTS5 tables keyed by the rowids of
 * their owners' rows (PostgreSQL: migrations/postgres/custom/0100_search.sql, tables of the same
 * names keyed by the owners' ids). Other folders name an index through this object, never by its
 * table name, and join the hits to their own rows.
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
 * its fragment methods answer drizzle `SQL` the owners of the rows join to their own tables. The
 * PostgreSQL twin keeps a table per index with a `tsvector` document (GIN index) filled by
 * triggers in the writer's transaction (so nothing is staged and `flushStaged` does nothing),
 * names hits by the owner's id (field values: by the record, `hitKeySql(row, ftsIndexes.fieldValues)`),
 * reads them newest first by the index's `seq` (insertion order, as SQLite's rowids), matches a
 * `to_tsquery('simple', …)` with `@@` (columns as weights, `:*` for a prefix), and ranks with
 * `ts_rank` (bigger is better: negated).
 */
export type SearchDialect = {
  /** The match expression of `terms` (the last one a prefix when `prefixLast`) limited to `columns`. */
  matchExpression(terms: readonly string[], prefixLast: boolean, columns: readonly string[]): string;
  /** How many messages hold `term` as a whole word, counted up to `cap` (the cost bounded by the cap). */
  messageTermDocs(term: string, cap: number): Promise<number>;
  /**
   * The key by which hits name a row of the index's owner: `row` is its table or an alias of it.
   * `index` is needed for the field values only (PostgreSQL names their hits by the record).
   */
  hitKeySql(row: SQLWrapper, index?: FtsIndex): SQL;
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

/** The weight (PostgreSQL) standing for each column of the indexes: an index's first column is A, its second B. */
const COLUMN_WEIGHTS: Readonly<Record<string, string>> = {
  subject: "A",
  body: "A",
  value: "A",
  name: "A",
  email: "B",
  domain: "B",
};

/**
 * A term folded as the PostgreSQL documents are (migrations/postgres/custom/0100_search.sql
 * `desk_search_text`): decomposed, combining marks dropped (SQLite's `remove_diacritics 2`).
 */
const foldedTerm = (term: string): string => term.normalize("NFKD").replace(/[\u0300-\u036f]+/g, "");

/**
 * The `to_tsquery('simple', …)` text holding every term (the last one a prefix when `prefixLast`)
 * in a column of `weights` (`"AB"`; `""` for any). Terms are `queryTerms` words (letters, digits, underscore):
 * quoted, nothing of them is tsquery syntax; a term the parser cuts in two (`a_b`) is a phrase, as
 * FTS5 reads `"a_b"`.
 */
export const tsQueryText = (terms: readonly string[], prefixLast: boolean, weights: string): string => {
  const last = terms.length - 1;
  return terms
    .map((t, i) => {
      const label = `${i === last && prefixLast ? "*" : ""}${weights}`;
      return `'${foldedTerm(t)}'${label ? `:${label}` : ""}`;
    })
    .join(" & ");
};

const weightsOf = (columns: readonly string[]): string =>
  columns
    .map((column) => {
      const weight = COLUMN_WEIGHTS[column];
      if (!weight) throw new Error(`no search column ${column}`);
      return weight;
    })
    .join("");

/**
 * PostgreSQL's fragments: the hits of `match` read newest first by `seq` within the cap (the GIN
 * index finds them, the cap bounds what is ranked and joined), as `h` with its document and query
 * for `rankSql`. `ts_rank` takes weights up to 1: they are scaled to the largest and the score
 * multiplied back, so scores of different indexes compare as bm25's weights say.
 */
const postgresSearchSql: SearchFragments = {
  matchExpression: (terms, prefixLast, columns) => tsQueryText(terms, prefixLast, weightsOf(columns)),
  hitKeySql: (row, index) => (index === ftsIndexes.fieldValues ? sql`${row}.record_id` : sql`${row}.id`),
  rowidsSql: (index, match, cap) =>
    sql`SELECT rid FROM ${sql.raw(index)} WHERE doc @@ to_tsquery('simple', ${match}) ORDER BY seq DESC LIMIT ${cap}`,
  scoredHitsSql: (index, match, cap, score) =>
    sql`SELECT h.rid, ${score} AS score FROM (SELECT rid, seq, doc, to_tsquery('simple', ${match}) AS q FROM ${sql.raw(index)}
      WHERE doc @@ to_tsquery('simple', ${match}) ORDER BY seq DESC LIMIT ${cap}) h ORDER BY h.seq DESC`,
  rankSql: (_index, weights) => {
    // SQLite's weights: the `ws` column first (0.0), then one per column; ts_rank's array is {D, C, B, A}.
    const [, a = 0, b = 0] = weights.split(",").map((w) => Number(w.trim()));
    const top = Math.max(a, b);
    if (!(top > 0)) return sql.raw("0");
    return sql.raw(`(-${top} * ts_rank('{0, 0, ${b / top}, ${a / top}}'::float4[], h.doc, h.q, 1))`);
  },
};

const postgresSearch = (db: Queryable): SearchDialect => {
  const termDocs = postgresQuery<{ n: number }, [string, number]>(
    db,
    "SELECT count(*)::int AS n FROM (SELECT 1 FROM message_search WHERE doc @@ to_tsquery('simple', ?) LIMIT ?) x",
  );
  return {
    ...postgresSearchSql,
    messageTermDocs: async (term, cap) => (await termDocs.get(tsQueryText([term], false, ""), cap))?.n ?? 0,
    // Triggers index every document in its writer's transaction: nothing is staged.
    flushStaged: () => {},
  };
};

export const searchStatements = dialectStatements<SearchDialect>({ sqlite: sqliteSearch, postgres: postgresSearch });
