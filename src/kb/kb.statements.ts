import { sql, type SQL, type SQLWrapper } from "drizzle-orm";
import { dialectStatements } from "../db/dialect";
import { tsQueryText } from "../search/search.public";

/** The `ws` token article_search stores for a workspace (migrations/custom/0120). */
const wsToken = (workspaceId: string) => `w${workspaceId.replaceAll("-", "")}`;

/**
 * Fragments of the knowledge base's queries whose SQL differs by engine. SQLite searches articles
 * through the FTS5 table `article_search`, keyed by the articles' rowids, its `ws` token column
 * part of the match (so a small workspace is never crowded out by a big one), newest hits first in
 * rowid order, ranked by bm25; a word is found in text with `instr`. The PostgreSQL twin matches
 * the `tsvector` of the table `article_search` (migrations/postgres/custom/0100_search.sql: keyed by
 * article id, the workspace a column in the WHERE, title weight A and body B) with `@@`, takes the
 * newest hits by its `seq` (insertion order, as rowids), ranks with `-ts_rank` (the title ten times
 * the body) and uses `strpos`.
 */
export type KbSqlParts = {
  /**
   * The workspace's newest `cap` article hits holding every term (the last one as a prefix), as `rid`
   * (an article as `articleKeySql` names it) and `score` (lower is better; the title weighs ten times the body).
   */
  articleHitsSql(workspaceId: string, terms: readonly string[], cap: number): SQL;
  /** The key by which article hits name an article: `row` is kb_articles or an alias of it. */
  articleKeySql(row: SQLWrapper): SQL;
  /** `text` holds `needle` as a plain substring (no pattern characters). */
  containsSql(text: SQL, needle: string): SQL;
};

/** Fragments only: they need no connection, and the caller runs them on its own change. */
const sqliteKbParts = (): KbSqlParts => ({
  articleHitsSql: (workspaceId, terms, cap) => {
    const last = terms.length - 1;
    const phrase = terms.map((t, i) => (i === last ? `"${t}"*` : `"${t}"`)).join(" ");
    const match = `{ws} : "${wsToken(workspaceId)}" AND {title body} : (${phrase})`;
    return sql`SELECT rowid AS rid, bm25(article_search, 0.0, 10.0, 1.0) AS score FROM article_search WHERE article_search MATCH ${match} ORDER BY rowid DESC LIMIT ${cap}`;
  },
  articleKeySql: (row) => sql`${row}.rowid`,
  containsSql: (text, needle) => sql`instr(${text}, ${needle}) > 0`,
});

const postgresKbParts = (): KbSqlParts => ({
  articleHitsSql: (workspaceId, terms, cap) => {
    const match = tsQueryText(terms, true, "AB");
    return sql`SELECT h.rid, (-10 * ts_rank('{0, 0, 0.1, 1}'::float4[], h.doc, h.q, 1)) AS score
      FROM (SELECT rid, seq, doc, to_tsquery('simple', ${match}) AS q FROM article_search
        WHERE ws = ${workspaceId} AND doc @@ to_tsquery('simple', ${match}) ORDER BY seq DESC LIMIT ${cap}) h`;
  },
  articleKeySql: (row) => sql`${row}.id`,
  containsSql: (text, needle) => sql`strpos(${text}, ${needle}) > 0`,
});

export const kbSqlParts = dialectStatements<KbSqlParts>({ sqlite: sqliteKbParts, postgres: postgresKbParts });
