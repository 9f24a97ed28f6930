import { asc, type SQL, type SQLWrapper, sql } from "drizzle-orm";
import { dialectStatements } from "../db/dialect";

/**
 * The saved-reply list's SQL that differs by engine: titles sort by code point on both (SQLite's BINARY
 * collation; PostgreSQL `COLLATE "C"`, whatever the database's own collation is).
 */
export interface SavedReplyStatements {
  /** `column` ascending, text compared by code point. */
  textAscending(column: SQLWrapper): SQL;
}

export const savedReplyStatements = dialectStatements<SavedReplyStatements>({
  sqlite: () => ({ textAscending: (column) => asc(column) }),
  postgres: () => ({ textAscending: (column) => sql`${column} COLLATE "C" asc` }),
});
