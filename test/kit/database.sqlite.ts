import { migrations } from "../../migrations/index";
import type { Db, Runtime } from "../../src/db/database";
import { openDatabase } from "../../src/db/engine";
import { migrate } from "../../src/db/sqlite/migrate";
import { createRuntime } from "../../src/db/runtime";

/**
 * A database file with every migration applied, for tests of machinery that runs below a desk
 * (consumers, jobs, seqs). SQLite's own lineage: the PostgreSQL step gives these tests a twin opener.
 */
export function openMigratedDatabase(path: string, runtime: Runtime = createRuntime()): Db {
  const db = openDatabase(path, runtime);
  migrate(db.$client, migrations);
  return db;
}

/** Closes the connection, so the file can be removed or opened again by another process. */
export function closeDatabase(db: Db): void {
  db.$client.close();
}
