import { sql, type SQL } from "drizzle-orm";

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

/** The per-workspace token stored in each index's `ws` column. */
export const workspaceToken = (workspaceId: string): string => `w${workspaceId.replace(/-/g, "").toLowerCase()}`;

/** Words of a user query (letters, digits, underscore), lower-cased; FTS syntax can never leak in. */
export function queryTerms(q: string): string[] {
  return (q.normalize("NFKC").toLowerCase().match(/[\p{L}\p{N}_]+/gu) ?? []).slice(0, MAX_TERMS);
}

/**
 * An FTS5 MATCH expression: the workspace token AND every term (the last one as a prefix).
 */
export function matchExpression(workspaceId: string, q: string, columns: string[]): string | null {
  const terms = queryTerms(q);
  if (terms.length === 0) return null;
  const phrase = phraseOf(terms);
  return `ws : "${workspaceToken(workspaceId)}" AND {${columns.join(" ")}} : (${phrase})`;
}

/**
 * A term as an FTS5 token expression. Only the last term is a prefix (search as you type), and only
 * from three characters: FTS5 merges every term under a prefix, so "th"* would read half the index.
 */
export const termExpression = (term: string, last = true): string => (last && term.length >= 3 ? `"${term}"*` : `"${term}"`);
const phraseOf = (terms: string[]): string => terms.map((t, i) => termExpression(t, i === terms.length - 1)).join(" ");

/** The terms only, without the workspace token: for precise (bm25-ranked) searches of rare terms. */
export function termsExpression(q: string, columns: string[]): string | null {
  const terms = queryTerms(q);
  if (terms.length === 0) return null;
  return `{${columns.join(" ")}} : (${phraseOf(terms)})`;
}

/** Ids of tickets whose subject, messages or custom text values match (capped, newest hits first). */
export function matchingTicketIdsSql(workspaceId: string, q: string): SQL {
  const subject = matchExpression(workspaceId, q, ["subject"]);
  if (!subject) return sql`SELECT NULL WHERE 0`;
  const body = matchExpression(workspaceId, q, ["body"])!;
  const value = matchExpression(workspaceId, q, ["value"])!;
  return sql`SELECT t.id FROM tickets t WHERE t.rowid IN (SELECT rowid FROM ticket_search WHERE ticket_search MATCH ${subject} ORDER BY rowid DESC LIMIT ${MATCH_CAP})
    UNION SELECT m.ticket_id FROM messages m WHERE m.rowid IN (SELECT rowid FROM message_search WHERE message_search MATCH ${body} ORDER BY rowid DESC LIMIT ${MATCH_CAP})
    UNION SELECT fv.record_id FROM field_values fv WHERE fv.entity = 'ticket' AND fv.rowid IN (SELECT rowid FROM field_value_search WHERE field_value_search MATCH ${value} ORDER BY rowid DESC LIMIT ${MATCH_CAP})`;
}

/** Ids of contacts whose name, email or custom text values match: for `q` on the contact list. */
export function matchingContactIdsSql(workspaceId: string, q: string): SQL {
  const person = matchExpression(workspaceId, q, ["name", "email"]);
  if (!person) return sql`SELECT NULL WHERE 0`;
  const value = matchExpression(workspaceId, q, ["value"])!;
  return sql`SELECT c.id FROM contacts c WHERE c.rowid IN (SELECT rowid FROM contact_search WHERE contact_search MATCH ${person} ORDER BY rowid DESC LIMIT ${MATCH_CAP})
    UNION SELECT fv.record_id FROM field_values fv WHERE fv.entity = 'contact' AND fv.rowid IN (SELECT rowid FROM field_value_search WHERE field_value_search MATCH ${value} ORDER BY rowid DESC LIMIT ${MATCH_CAP})`;
}
