import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll } from "bun:test";
import type { Db } from "../../src/db/database";
import { closeDatabase, openDatabase } from "../../src/db/engine";
import { createRuntime } from "../../src/db/runtime";
import { closeDatabase as closeSqliteFile, openMigratedDatabase } from "./database.sqlite";
import { freshPostgresDatabase, onPostgres } from "./postgres";

const cleanups: Array<() => Promise<void>> = [];
let registered = false;

/**
 * A migrated database of its own, below any desk (for tests of consumers, jobs, seqs), on the engine
 * the tests run on: a file in a directory of its own, or on PostgreSQL a copy of the test template.
 * `where` is its path or URL (what a second process opens). Closed and removed after the test file.
 */
export async function openTestDatabase(): Promise<{ db: Db; where: string }> {
  if (!registered) {
    registered = true;
    afterAll(async () => {
      for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
    });
  }
  if (onPostgres) {
    const database = await freshPostgresDatabase();
    const db = openDatabase(database.url, createRuntime());
    cleanups.push(async () => {
      await closeDatabase(db).catch(() => {});
      await database.drop();
    });
    return { db, where: database.url };
  }
  const dir = mkdtempSync(join(tmpdir(), "desk-db-"));
  const where = join(dir, "desk.db");
  const db = openMigratedDatabase(where);
  cleanups.push(async () => {
    try {
      closeSqliteFile(db);
    } catch {
      // Closed by the test already.
    }
    rmSync(dir, { recursive: true, force: true });
  });
  return { db, where };
}
