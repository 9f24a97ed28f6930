import { Database } from "bun:sqlite";
import { drizzle, type BunSQLiteDatabase } from "drizzle-orm/bun-sqlite";

export type Db = BunSQLiteDatabase<Record<string, never>> & { $client: Database };
export type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];
/** What a read can run on: the database or an open transaction. */
export type Queryable = Db | Tx;

/**
 * Opens the one SQLite file. A single connection in a single thread is the one writer:
 * synchronous transactions cannot interleave, so requests never meet SQLITE_BUSY from each other;
 * the busy timeout covers a second process (a CLI migrate, a backup) touching the file.
 */
export function openDatabase(path: string): Db {
  const sqlite = new Database(path, { create: true, strict: true });
  sqlite.exec("PRAGMA journal_mode = WAL");
  sqlite.exec("PRAGMA synchronous = NORMAL");
  sqlite.exec("PRAGMA foreign_keys = ON");
  sqlite.exec("PRAGMA busy_timeout = 5000");
  sqlite.exec("PRAGMA temp_store = MEMORY");
  sqlite.exec("PRAGMA cache_size = -65536");
  sqlite.exec("PRAGMA mmap_size = 268435456");
  return drizzle({ client: sqlite }) as Db;
}
