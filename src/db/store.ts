/**
 * Helpers for the store calls both engines share: a drizzle builder is awaited for its rows, so the
 * first row of a select and the row an insert … returning() gave are read from that list.
 */
export const first = <T>(rows: readonly T[]): T | undefined => rows[0];

/** The row a write … returning() gave (it wrote exactly one). */
export const one = <T>(rows: readonly T[]): T => rows[0] as T;
