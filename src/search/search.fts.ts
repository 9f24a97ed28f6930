import { sql, type SQL } from "drizzle-orm";

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

/** Rowids of the index's newest `cap` hits (FTS5 walks rowids newest first and stops early). */
export const ftsRowidsSql = (index: FtsIndex, match: string, cap: number): SQL =>
  sql`SELECT rowid FROM ${sql.raw(index)} WHERE ${sql.raw(index)} MATCH ${match} ORDER BY rowid DESC LIMIT ${cap}`;

/** The index's newest `cap` hits as `rid` (the owner's rowid) and `score`. */
export const ftsScoredHitsSql = (index: FtsIndex, match: string, cap: number, score: SQL): SQL =>
  sql`SELECT rowid AS rid, ${score} AS score FROM ${sql.raw(index)} WHERE ${sql.raw(index)} MATCH ${match} ORDER BY rowid DESC LIMIT ${cap}`;

/** bm25 of a hit of the index, with one weight per column (the first, the workspace token, weighs 0.0). */
export const bm25Sql = (index: FtsIndex, weights: string): SQL => sql.raw(`bm25(${index}, ${weights})`);
