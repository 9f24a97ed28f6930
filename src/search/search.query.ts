import type { SQL } from "drizzle-orm";
import type { Queryable } from "../db/database";
import { ftsIndexes, ftsRowidsSql } from "./search.fts";
import { flushSearchStaging } from "./search.staging";
import { searchStatements } from "./search.statements";

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

/** Words of a user query (letters, digits, underscore), lower-cased; FTS syntax can never leak in. */
export function queryTerms(q: string): string[] {
  return (
    q
      .normalize("NFKC")
      .toLowerCase()
      .match(/[\p{L}\p{N}_]+/gu) ?? []
  ).slice(0, MAX_TERMS);
}

/** `4` or `#4`: a ticket number as people quote it; null for anything else. */
export function ticketNumberOf(q: string): { number: number; only: boolean } | null {
  const match = /^\s*(#?)\s*(\d{1,15})\s*$/.exec(q);
  if (!match) return null;
  const number = Number(match[2]);
  // `#4` can only mean the ticket; a bare `4` may also be a word of the text.
  return Number.isSafeInteger(number) && number > 0 ? { number, only: match[1] === "#" } : null;
}

/**
 * Tickets of each contact whose name or email matches, newest first. A sender with thousands of
 * tickets (a notification address) would otherwise flood the hits; the cap is per contact.
 */
export const TICKETS_PER_CONTACT = 100;

/** A last term found exactly in at least this many messages is taken as a whole word, not a prefix. */
export const WORD_DOCS = 200;

export type SearchPlan = {
  /** The terms as the dialect's match expression (FTS5 here) limited to `columns`. */
  expression(columns: string[]): string;
  /** Every term is rare: bm25 may rank all hits. Otherwise only the newest hits are read. */
  precise: boolean;
};

/**
 * Plans a search: the last term (three characters or more) is a prefix unless it is already a
 * frequent whole word: FTS5 merges the doclists of every term under a prefix, which on 5M messages
 * costs up to ~60 ms for a common stem, against ~2 ms for the word itself. Terms are not combined
 * with the `ws` column: AND-ing with a token in every document of a big workspace costs 40-140 ms;
 * results are filtered by workspace in the joins instead, so nothing leaks.
 */
export async function planSearch(
  db: Queryable,
  q: string,
  commonTermDocs = COMMON_TERM_DOCS,
): Promise<SearchPlan | null> {
  const terms = queryTerms(q);
  if (terms.length === 0) return null;
  // Documents written earlier in this turn are still staged: index them before reading.
  flushSearchStaging(db);
  const search = searchStatements(db);
  const docs = await Promise.all(terms.map(async (term) => await search.messageTermDocs(term, commonTermDocs)));
  const last = terms.length - 1;
  const prefixLast = terms[last]!.length >= 3 && docs[last]! < WORD_DOCS;
  return {
    expression: (columns) => search.matchExpression(terms, prefixLast, columns),
    precise: !prefixLast && docs.every((n) => n < commonTermDocs),
  };
}

/**
 * Rowids of companies with a name or domain word matching every term (the last one as a prefix):
 * "Ltd" finds "Acme Ltd", not only names starting with it. Company counts are small next to
 * messages, so the prefix is always taken and no frequency plan is needed.
 */
export function matchingCompanyRowidsSql(db: Queryable, q: string): SQL | null {
  const terms = queryTerms(q);
  if (terms.length === 0) return null;
  return ftsRowidsSql(
    db,
    ftsIndexes.companies,
    searchStatements(db).matchExpression(terms, true, ["name", "domain"]),
    MATCH_CAP,
  );
}
