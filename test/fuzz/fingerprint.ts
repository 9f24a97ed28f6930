import { sql } from "drizzle-orm";
import type { Db } from "../../src/db/database";
import { rowsOf } from "../../src/db/store";
import { onPostgres } from "../kit/postgres";
import { storedState as storedSqliteState } from "./fingerprint.sqlite";

/**
 * A digest of everything stored: every row of every table. Two equal digests mean nothing was
 * stored or changed in between. On SQLite the tables come from its catalogue in rowid order
 * (fingerprint.sqlite.ts); on PostgreSQL from information_schema, each table's rows as text in
 * their text order (a table has no rowid there, and a rolled-back change leaves no row behind).
 */
const COUNTERS_OUTSIDE_SQLITE = new Set(["rate_limit_hits", "spent_challenges"]);

export async function storedState(db: Db): Promise<string> {
  if (!onPostgres) return await storedSqliteState(db);
  const hasher = new Bun.CryptoHasher("sha256");
  const tables = await rowsOf<{ name: string }>(
    db,
    sql`SELECT table_name AS name FROM information_schema.tables
        WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' ORDER BY table_name`,
  );
  for (const { name } of tables) {
    // Budgets a refused request may spend (AI, sign-in): kept in memory on SQLite, in a table here.
    if (COUNTERS_OUTSIDE_SQLITE.has(name)) continue;
    hasher.update(name);
    const rows = await rowsOf<{ row: string }>(
      db,
      sql`SELECT t::text AS row FROM ${sql.identifier(name)} t ORDER BY 1`,
    );
    for (const { row } of rows) hasher.update(row);
  }
  return hasher.digest("hex");
}
