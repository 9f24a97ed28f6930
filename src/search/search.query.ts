import { sql, type SQL } from "drizzle-orm";
import type { Queryable } from "../db/database";
import { flushSearchStaging } from "./search.staging";

/**
 * Guards for FTS5 (PLATFORM.md: a query of two very common words can take 0.5 s on 1M documents
 * and block the one JS thread). Every search reads at most MATCH_CAP hits per index, newest
 * first (rowid order, which FTS5 walks lazily and stops early), and ranks only those.
 */
export const MATCH_CAP = 1000;
export const RANK_CAP = 300;
/** A term in more documents than this is "common": bm25 would read its whole doclist, so it is not used. */
export const COMMON_TERM_DOCS = 2000;
const MAX_TERMS = 8;

/** The per-workspace token the triggers store in each index's `ws` column (kept for rebuilds; queries filter by join). */
export const workspaceToken = (workspaceId: string): string => `w${workspaceId.replace(/-/g, "").toLowerCase()}`;

/** Words of a user query (letters, digits, underscore), lower-cased; FTS syntax can never leak in. */
export function queryTerms(q: string): string[] {
  return (q.normalize("NFKC").toLowerCase().match(/[\p{L}\p{N}_]+/gu) ?? []).slice(0, MAX_TERMS);
}

/** A last term found exactly in at least this many messages is taken as a whole word, not a prefix. */
export const WORD_DOCS = 200;

export type SearchPlan = {
  /** The terms as an FTS5 expression limited to `columns`. */
  expression(columns: string[]): string;
  /** Every term is rare: bm25 may rank all hits. Otherwise only the newest hits are read. */
  precise: boolean;
};

/** Documents of the message index holding `term` exactly, counted up to `cap` (cost bounded by the cap). */
function termDocs(db: Queryable, term: string, cap: number): number {
  const [row] = db.all<{ n: number }>(sql`SELECT count(*) AS n FROM (SELECT 1 FROM message_search WHERE message_search MATCH ${`{body} : "${term}"`} LIMIT ${cap})`);
  return row?.n ?? 0;
}

/**
 * Plans a search: the last term (three characters or more) is a prefix unless it is already a
 * frequent whole word: FTS5 merges the doclists of every term under a prefix, which on 5M messages
 * costs up to ~60 ms for a common stem, against ~2 ms for the word itself. Terms are not combined
 * with the `ws` column: AND-ing with a token in every document of a big workspace costs 40-140 ms;
 * results are filtered by workspace in the joins instead, so nothing leaks.
 */
export function planSearch(db: Queryable, q: string, commonTermDocs = COMMON_TERM_DOCS): SearchPlan | null {
  const terms = queryTerms(q);
  if (terms.length === 0) return null;
  // Documents written earlier in this turn are still staged: index them before reading.
  flushSearchStaging(db);
  const docs = terms.map((term) => termDocs(db, term, commonTermDocs));
  const last = terms.length - 1;
  const prefixLast = terms[last]!.length >= 3 && docs[last]! < WORD_DOCS;
  const phrase = terms.map((t, i) => (i === last && prefixLast ? `"${t}"*` : `"${t}"`)).join(" ");
  return {
    expression: (columns) => `{${columns.join(" ")}} : (${phrase})`,
    precise: !prefixLast && docs.every((n) => n < commonTermDocs),
  };
}

/** Ids of tickets whose subject, messages or custom text values match (capped, newest hits first). */
export function matchingTicketIdsSql(db: Queryable, q: string): SQL {
  const plan = planSearch(db, q);
  if (!plan) return sql`SELECT NULL WHERE 0`;
  const subject = plan.expression(["subject"]);
  const body = plan.expression(["body"]);
  const value = plan.expression(["value"]);
  // Each hit costs a random read of its row (messages spread over gigabytes): broad queries read fewer.
  const cap = plan.precise ? MATCH_CAP : RANK_CAP;
  return sql`SELECT t.id FROM tickets t WHERE t.rowid IN (SELECT rowid FROM ticket_search WHERE ticket_search MATCH ${subject} ORDER BY rowid DESC LIMIT ${cap})
    UNION SELECT m.ticket_id FROM messages m WHERE m.rowid IN (SELECT rowid FROM message_search WHERE message_search MATCH ${body} ORDER BY rowid DESC LIMIT ${cap})
    UNION SELECT fv.record_id FROM field_values fv WHERE fv.entity = 'ticket' AND fv.rowid IN (SELECT rowid FROM field_value_search WHERE field_value_search MATCH ${value} ORDER BY rowid DESC LIMIT ${cap})`;
}

/** Ids of contacts whose name, email or custom text values match: for `q` on the contact list. */
export function matchingContactIdsSql(db: Queryable, q: string): SQL {
  const plan = planSearch(db, q);
  if (!plan) return sql`SELECT NULL WHERE 0`;
  const person = plan.expression(["name", "email"]);
  const value = plan.expression(["value"]);
  return sql`SELECT c.id FROM contacts c WHERE c.rowid IN (SELECT rowid FROM contact_search WHERE contact_search MATCH ${person} ORDER BY rowid DESC LIMIT ${MATCH_CAP})
    UNION SELECT fv.record_id FROM field_values fv WHERE fv.entity = 'contact' AND fv.rowid IN (SELECT rowid FROM field_value_search WHERE field_value_search MATCH ${value} ORDER BY rowid DESC LIMIT ${MATCH_CAP})`;
}
