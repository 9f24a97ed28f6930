import { existsSync } from "node:fs";
import { lineages } from "../../migrations/lineages";
import type { Db } from "../db/database";
import { closeDatabase, migrateDatabase, openDatabase } from "../db/engine";
import { createRuntime } from "../db/runtime";
import { sqliteOf } from "../db/sqlite/prepared";
import { flushSearchStaging } from "../search/search.public";

/** A value as bun:sqlite answers it with safe integers: integers come as bigint, so none loses digits. */
export type SqliteValue = string | number | bigint | Uint8Array | null;

/** A desk's SQLite file, held by migrate-to alone while it reads (the way there) or writes it (the way back). */
export type SqliteFile = {
  /** Tables (not SQLite's own) and their columns, by name. */
  tables(): Map<string, string[]>;
  /** Every row of `table`, `columns` in that order, streamed. */
  rows(table: string, columns: readonly string[]): IterableIterator<SqliteValue[]>;
  count(table: string): number;
  /** The migration tags the file holds. */
  migrationTags(): string[];
  close(): Promise<void>;
};

/** A new SQLite file being filled: rows go in through one transaction, `commit` ends it. */
export type SqliteTarget = SqliteFile & {
  insert(table: string, columns: readonly string[], rows: ReadonlyArray<readonly SqliteValue[]>): void;
  /** Empties a table the triggers filled (to copy the source's rows over them). */
  empty(table: string): void;
  /** Moves what the search triggers staged into the full-text indexes, then commits. */
  commit(): void;
};

/** Raised when a desk (or any other process) has the file open: the source must be stopped. */
export class SourceRunningError extends Error {}

const quoted = (name: string) => `"${name.replaceAll('"', '""')}"`;

function fileOf(db: Db): SqliteFile {
  const sqlite = sqliteOf(db);
  return {
    tables() {
      const names = sqlite
        .query<{ name: string }, []>(
          "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name",
        )
        .all()
        .map((r) => r.name);
      const out = new Map<string, string[]>();
      for (const name of names) {
        const columns = sqlite
          .query<{ name: string }, [string]>("SELECT name FROM pragma_table_info(?)")
          .all(name)
          .map((r) => r.name);
        out.set(name, columns);
      }
      return out;
    },
    *rows(table, columns) {
      const statement = sqlite.query<Record<string, SqliteValue>, []>(
        `SELECT ${columns.map(quoted).join(", ")} FROM ${quoted(table)}`,
      );
      statement.safeIntegers(true);
      for (const row of statement.iterate()) yield columns.map((c) => row[c] ?? null);
    },
    count(table) {
      return Number(sqlite.query<{ n: number }, []>(`SELECT count(*) AS n FROM ${quoted(table)}`).get()?.n ?? 0);
    },
    migrationTags() {
      return sqlite
        .query<{ tag: string }, []>("SELECT tag FROM __desk_migrations ORDER BY tag")
        .all()
        .map((r) => r.tag);
    },
    async close() {
      try {
        sqlite.exec("ROLLBACK");
      } catch {
        // Nothing open.
      }
      // Back to normal locking, let go of at the next read: a connection whose cached statements
      // outlive close() (the process goes on, as in tests) must not keep the file locked.
      sqlite.exec("PRAGMA locking_mode = NORMAL");
      sqlite.query("SELECT 1 FROM sqlite_master LIMIT 1").get();
      await closeDatabase(db);
    },
  };
}

/**
 * Takes SQLite's exclusive lock at once (no waiting): a running desk keeps its connection open, and
 * in WAL mode every open connection holds a shared lock on the file's wal-index, so the lock is
 * refused while any desk (or `desk backup`, or another reader) has the file open. Held until
 * `close`: a desk started meanwhile waits for its busy timeout and fails rather than writing behind
 * the copy.
 */
function lockExclusively(db: Db, path: string): void {
  const sqlite = sqliteOf(db);
  try {
    sqlite.exec("PRAGMA busy_timeout = 0");
    sqlite.exec("PRAGMA locking_mode = EXCLUSIVE");
    sqlite.exec("BEGIN EXCLUSIVE");
  } catch (error) {
    sqlite.close();
    throw new SourceRunningError(
      `${path} is in use (${String(error)}): stop Desk (and any backup or other process using the data dir) first`,
    );
  }
}

/**
 * The source of the way there: one read transaction under the exclusive lock throughout, so every
 * table is read from the same snapshot. Nothing is written (the transaction is rolled back); closing
 * the file folds a WAL left behind into it, as a desk's own stop does, which changes no row.
 */
export function openSqliteSource(path: string): SqliteFile {
  if (!existsSync(path))
    throw new SourceRunningError(`${path} does not exist: DESK_DATA_DIR must name the data dir of the desk to move`);
  const db = openDatabase(path, createRuntime());
  lockExclusively(db, path);
  return fileOf(db);
}

/** The target of the way back: a new file, migrated with this release's SQLite lineage, then filled in one transaction. */
export async function createSqliteTarget(path: string): Promise<SqliteTarget> {
  const db = openDatabase(path, createRuntime());
  await migrateDatabase(db, lineages);
  lockExclusively(db, path);
  const sqlite = sqliteOf(db);
  const inserts = new Map<string, ReturnType<typeof sqlite.prepare>>();
  const file = fileOf(db);
  return {
    ...file,
    async close() {
      for (const statement of inserts.values()) statement.finalize();
      await file.close();
    },
    insert(table, columns, rows) {
      const text = `INSERT INTO ${quoted(table)} (${columns.map(quoted).join(", ")}) VALUES (${columns.map(() => "?").join(", ")})`;
      let statement = inserts.get(text);
      if (!statement) {
        statement = sqlite.prepare(text);
        inserts.set(text, statement);
      }
      for (const row of rows) statement.run(...(row as SqliteValue[]));
    },
    empty(table) {
      sqlite.exec(`DELETE FROM ${quoted(table)}`);
    },
    commit() {
      flushSearchStaging(db);
      sqlite.exec("COMMIT");
      // The lock stays: the file is read again for the verification before migrate-to lets go of it.
      sqlite.exec("BEGIN");
    },
  };
}
