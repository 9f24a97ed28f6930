import { Database, type Statement } from "bun:sqlite";
import { drizzle } from "drizzle-orm/bun-sqlite";
import type { SqliteDb } from "./connection";

/**
 * Opens the one SQLite file. A single connection in a single thread is the one writer:
 * transaction bodies take turns on it (a FIFO lock, src/db/tx.ts), so requests never meet SQLITE_BUSY from each other;
 * the busy timeout covers a second process (a CLI migrate, a backup) touching the file.
 * `runtime` (`createRuntime()`, src/db/runtime.ts) holds the desk's transaction state and registries.
 */
export function openSqlite<R>(path: string, runtime: R, options: { readonly?: boolean } = {}): SqliteDb<R> {
  if (options.readonly) return openReader(path, runtime);
  const sqlite = new Database(path, { create: true, strict: true });
  sqlite.exec("PRAGMA journal_mode = WAL");
  sqlite.exec("PRAGMA synchronous = NORMAL");
  sqlite.exec("PRAGMA foreign_keys = ON");
  sqlite.exec("PRAGMA busy_timeout = 5000");
  sqlite.exec("PRAGMA temp_store = MEMORY");
  // 16 MB of page cache (it was 64 MB, all of it resident after a few seconds of writes): reads go
  // through the memory map, which the kernel may take back, so the cache mostly holds written pages.
  sqlite.exec("PRAGMA cache_size = -16384");
  sqlite.exec("PRAGMA mmap_size = 268435456");
  // Freed cells and pages are zeroed, so a deleted secret (a sealed key, a message a customer
  // asked to erase) does not linger in the file or its backups. Measured on ticket creation: see README.
  sqlite.exec("PRAGMA secure_delete = ON");
  cacheStatements(sqlite);
  return Object.assign(drizzle({ client: sqlite }), { $runtime: runtime });
}

/** A WAL reader for the read pool's workers: sees what is committed, never takes the write lock. */
function openReader<R>(path: string, runtime: R): SqliteDb<R> {
  const sqlite = new Database(path, { readonly: true, strict: true });
  sqlite.exec("PRAGMA query_only = ON");
  sqlite.exec("PRAGMA busy_timeout = 5000");
  sqlite.exec("PRAGMA temp_store = MEMORY");
  sqlite.exec("PRAGMA cache_size = -8192");
  sqlite.exec("PRAGMA mmap_size = 268435456");
  cacheStatements(sqlite);
  return Object.assign(drizzle({ client: sqlite }), { $runtime: runtime, $reader: true as const });
}

/**
 * Keeps the query planner's statistics fresh (SQLite's advice for long-lived connections): without
 * them, an index added to a large table can be passed over for a full sort. `analysis_limit` bounds
 * the work, so this stays cheap on millions of rows. Run after migrations and then hourly.
 */
export function optimizeSqlite(sqlite: Database, atStart = false): void {
  sqlite.exec("PRAGMA analysis_limit = 1000");
  sqlite.exec(atStart ? "PRAGMA optimize = 0x10002" : "PRAGMA optimize");
}

const STATEMENT_CACHE_SIZE = 1000;

/**
 * `col = ?` makes this SQLite build re-plan the statement on every run (6-20 µs each, measured),
 * `col = +?` does not, and picks the same index: unary plus is a no-op on any value and the
 * parameter has no affinity either way. So does `LIMIT ?` (drizzle's `.limit(1)`, which every
 * awaited "first row" select writes: 2-27 µs a run, measured), and `OFFSET ?`. Applied to
 * comparison operands and limits only, never to columns.
 */
export const unaryPlusParameters = (sql: string): string =>
  sql.replace(/(=|<>|!=|<=|>=|<|>|\blimit|\boffset)\s*\?(?!\d)/gi, "$1 +?");

/**
 * Drizzle compiles every query with `prepare()`, which costs more than running it. Statements are
 * reused by SQL text instead (least recently used dropped past the bound, left to the GC rather than
 * finalized, since a holder may still run it). Safe with one connection in one thread: every call
 * runs to completion before the next.
 */
function cacheStatements(sqlite: Database): void {
  const cache = new Map<string, Statement>();
  const compile = sqlite.prepare.bind(sqlite);
  sqlite.prepare = ((sql: string, ...rest: unknown[]) => {
    if (rest.length > 0 && rest[0] !== undefined)
      return (compile as (s: string, ...r: unknown[]) => Statement)(sql, ...rest);
    const hit = cache.get(sql);
    if (hit) {
      cache.delete(sql);
      cache.set(sql, hit);
      return hit;
    }
    const statement = compile(unaryPlusParameters(sql));
    cache.set(sql, statement);
    if (cache.size > STATEMENT_CACHE_SIZE) cache.delete(cache.keys().next().value!);
    return statement;
  }) as typeof sqlite.prepare;
  // Hand-written hot-path statements go through Bun's own cached `query()`: same rewrite.
  const query = sqlite.query.bind(sqlite);
  sqlite.query = ((sql: string) => query(unaryPlusParameters(sql))) as typeof sqlite.query;
}
