import type { Dialect } from "../db/dialect";
import { copySqliteFile, sqliteFileIntegrity, sqliteFileMigrationTags } from "../db/sqlite/files";

/**
 * What a backup asks of the database engine: a consistent copy taken while Desk keeps writing, the
 * migrations a copy holds, and a full integrity check of a copy. These work on database files, not
 * on the serving connection, so they are chosen by engine rather than built per connection. On
 * SQLite: `VACUUM INTO` on a read-only connection of its own (one read snapshot), `__desk_migrations`
 * of the copy, `PRAGMA integrity_check`. The PostgreSQL twin dumps with `pg_dump --format=custom`
 * (one snapshot too), reads the tags from the dump's `__desk_migrations` data, and checks a dump with
 * `pg_restore --list` (its table of contents reads whole) rather than a page check.
 */
export interface BackupStatements {
  /** Writes a consistent copy of the database at `source` to the new file `target`. */
  snapshot(source: string, target: string): Promise<void>;
  /** The migration tags applied in the copy at `path`, in tag order. */
  migrationTags(path: string): Promise<string[]>;
  /** "ok" when the copy at `path` is whole, else what is wrong (or why it could not be read). */
  integrity(path: string): Promise<string>;
}

const sqlite: BackupStatements = {
  async snapshot(source, target) {
    copySqliteFile(source, target);
  },
  async migrationTags(path) {
    return sqliteFileMigrationTags(path);
  },
  async integrity(path) {
    try {
      return sqliteFileIntegrity(path).join("; ");
    } catch (error) {
      return (error as Error).message;
    }
  },
};

/** The backup statements of an engine (an embedded install's files are SQLite's until the PostgreSQL twin joins). */
export function backupStatements(dialect: Dialect = "sqlite"): BackupStatements {
  if (dialect !== "sqlite") throw new Error(`no ${dialect} implementation of the backup statements`);
  return sqlite;
}
