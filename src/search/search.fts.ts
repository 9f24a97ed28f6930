import type { SQL } from "drizzle-orm";
import { ftsIndexes, sqliteSearchSql, type FtsIndex } from "./search.statements";

/**
 * The fragments other folders compose into their lists' SQL (search.statements.ts `SearchDialect`).
 * They are built without a connection, so they are SQLite's until the PostgreSQL step hands them
 * the database (or the plan) to choose by.
 */
export { ftsIndexes, type FtsIndex };

/** Rowids of the index's newest `cap` hits (FTS5 walks rowids newest first and stops early). */
export const ftsRowidsSql = (index: FtsIndex, match: string, cap: number): SQL =>
  sqliteSearchSql.rowidsSql(index, match, cap);

/** The index's newest `cap` hits as `rid` (the owner's rowid) and `score`. */
export const ftsScoredHitsSql = (index: FtsIndex, match: string, cap: number, score: SQL): SQL =>
  sqliteSearchSql.scoredHitsSql(index, match, cap, score);

/** bm25 of a hit of the index, with one weight per column (the first, the workspace token, weighs 0.0). */
export const bm25Sql = (index: FtsIndex, weights: string): SQL => sqliteSearchSql.rankSql(index, weights);
