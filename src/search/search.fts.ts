import type { SQL, SQLWrapper } from "drizzle-orm";
import type { Queryable } from "../db/database";
import { ftsIndexes, searchStatements, type FtsIndex } from "./search.statements";

/**
 * The fragments other folders compose into their lists' SQL (search.statements.ts `SearchDialect`),
 * in the dialect of the database they are asked with.
 */
export { ftsIndexes, type FtsIndex };

/**
 * The key by which hits name a row of the owner's table (`row`: the table, or `sql.raw(alias)`);
 * the field values' owner passes its index (PostgreSQL names those hits by the record).
 */
export const ftsHitKeySql = (db: Queryable, row: SQLWrapper, index?: FtsIndex): SQL =>
  searchStatements(db).hitKeySql(row, index);

/** Rowids of the index's newest `cap` hits (FTS5 walks rowids newest first and stops early). */
export const ftsRowidsSql = (db: Queryable, index: FtsIndex, match: string, cap: number): SQL =>
  searchStatements(db).rowidsSql(index, match, cap);

/** The index's newest `cap` hits as `rid` (the owner's rowid) and `score`. */
export const ftsScoredHitsSql = (db: Queryable, index: FtsIndex, match: string, cap: number, score: SQL): SQL =>
  searchStatements(db).scoredHitsSql(index, match, cap, score);

/** bm25 of a hit of the index, with one weight per column (the first, the workspace token, weighs 0.0). */
export const bm25Sql = (db: Queryable, index: FtsIndex, weights: string): SQL =>
  searchStatements(db).rankSql(index, weights);
