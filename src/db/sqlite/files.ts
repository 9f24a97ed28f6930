import { Database } from "bun:sqlite";
import { appliedMigrationTags } from "./migrate";

/**
 * Work on SQLite database files rather than the serving connection (backups, `desk doctor`): each
 * opens the file read-only on a connection of its own and closes it.
 */
function withReadOnlyFile<T>(path: string, use: (db: Database) => T): T {
  const db = new Database(path, { readonly: true });
  try {
    return use(db);
  } finally {
    db.close();
  }
}

/** A consistent copy of the file at `source` written to the new file `target` (`VACUUM INTO`: one read snapshot). */
export function copySqliteFile(source: string, target: string): void {
  withReadOnlyFile(source, (db) => {
    db.exec("PRAGMA busy_timeout = 5000");
    db.query("VACUUM INTO ?").run(target);
  });
}

/** The migration tags applied in the file at `path`, in tag order. */
export const sqliteFileMigrationTags = (path: string): string[] => withReadOnlyFile(path, appliedMigrationTags);

/** The file's integrity problems, every index compared with its table ("ok" alone when whole). */
export const sqliteFileIntegrity = (path: string): string[] =>
  withReadOnlyFile(path, (db) =>
    db
      .query<{ integrity_check: string }, []>("PRAGMA integrity_check")
      .all()
      .map((row) => row.integrity_check),
  );

/**
 * The file at `path` opened read-only: when it opens, its quick integrity problems (what is not "ok")
 * and applied migration tags; a failure after opening (not a database, say) is thrown, as before.
 */
export function inspectSqliteFile(
  path: string,
): { opened: false; error: string } | { opened: true; problems: string[]; applied: string[] } {
  let db: Database;
  try {
    db = new Database(path, { readonly: true });
  } catch (error) {
    return { opened: false, error: String(error) };
  }
  try {
    const integrity = db.query<{ quick_check: string }, []>("PRAGMA quick_check").all();
    const problems = integrity.map((r) => r.quick_check).filter((r) => r !== "ok");
    return { opened: true, problems, applied: appliedMigrationTags(db) };
  } finally {
    db.close();
  }
}
