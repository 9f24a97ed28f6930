import { Database, type Statement } from "bun:sqlite";
import { drizzle, type BunSQLiteDatabase } from "drizzle-orm/bun-sqlite";

/** The drizzle client, its connection, and the desk's runtime given to it at start (`createRuntime`, src/db/runtime.ts). */
export type Db = BunSQLiteDatabase<Record<string, never>> & {
  $client: Database;
  $runtime: Runtime;
  /** A read-only connection of the read pool (src/db/read-pool.ts): it writes nothing, not even the search staging flush. */
  $reader?: true;
};
export type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];
/** What a read can run on: the database or an open transaction. */
export type Queryable = Db | Tx;

export type Frame = {
  db: Db;
  tx: Tx;
  afterCommit: Array<() => void>;
  /** Open: its body runs (or awaits the store); false once it ended or the watchdog rolled it back. */
  pending: boolean;
};
export type Batch = {
  /** A batch opened by shareTurn reads only; the first change of its turn starts a write batch instead. */
  mode: "read" | "write";
  savepoints: number;
  /** Requests that joined through `shareTurn`. */
  sharers: number;
  /** SQLite's total_changes() when the batch began: writes outside transact count as pending too. */
  changesAtOpen: number;
  afterCommit: Array<() => void>;
  committed: Promise<void>;
  resolve: () => void;
  reject: (error: unknown) => void;
};

/**
 * The transaction state of one database (src/db/tx.ts), reached from the database and every
 * transaction handle. Declared beside `Db` because each holds the other.
 */
export type TxRuntime = {
  /** The open batch (the turn's SQLite transaction), if any. */
  batch: Batch | null;
  /** The change open now, if any (a nested transact joins it): at most one at a time. */
  frames: Frame[];
  /** A change holds the connection (its body runs or awaits the store). */
  locked: boolean;
  /** Bodies waiting for the open change to end, first come first served. */
  waiting: Array<() => void>;
  /** Work joining each batch that wrote something, just before its COMMIT. */
  beforeCommit: Array<() => void>;
};

/** Where a desk's runtime keeps the state declared with `deskState` (src/db/desk-state.ts), one symbol each. */
type DeskStates = { [slot: symbol]: unknown };

/**
 * The state one desk shares, built once at start (`createRuntime`, src/db/runtime.ts), given to
 * `openDatabase` and reached as `db.$runtime` from the database and every transaction handle: no
 * module-level registry keyed by database, so desks in one process never share any of it. Besides
 * the transaction state, it holds only `deskState` slots: the event hooks, the runner link, the
 * access listeners and the features' own state are each declared by their owner.
 */
export type Runtime = TxRuntime & { states: DeskStates };

/**
 * Opens the one SQLite file. A single connection in a single thread is the one writer:
 * transaction bodies take turns on it (a FIFO lock, src/db/tx.ts), so requests never meet SQLITE_BUSY from each other;
 * the busy timeout covers a second process (a CLI migrate, a backup) touching the file.
 * `runtime` (`createRuntime()`, src/db/runtime.ts) holds the desk's transaction state and registries.
 */
export function openDatabase(path: string, runtime: Runtime, options: { readonly?: boolean } = {}): Db {
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
  return Object.assign(drizzle({ client: sqlite }), { $runtime: runtime }) as Db;
}

/** A WAL reader for the read pool's workers: sees what is committed, never takes the write lock. */
function openReader(path: string, runtime: Runtime): Db {
  const sqlite = new Database(path, { readonly: true, strict: true });
  sqlite.exec("PRAGMA query_only = ON");
  sqlite.exec("PRAGMA busy_timeout = 5000");
  sqlite.exec("PRAGMA temp_store = MEMORY");
  sqlite.exec("PRAGMA cache_size = -8192");
  sqlite.exec("PRAGMA mmap_size = 268435456");
  cacheStatements(sqlite);
  return Object.assign(drizzle({ client: sqlite }), { $runtime: runtime, $reader: true as const }) as Db;
}

/** Whether `db` is a read pool connection (a transaction handle never is). */
export const isReader = (db: Queryable): boolean => "$reader" in db && db.$reader === true;

/**
 * Keeps the query planner's statistics fresh (SQLite's advice for long-lived connections): without
 * them, an index added to a large table can be passed over for a full sort. `analysis_limit` bounds
 * the work, so this stays cheap on millions of rows. Run after migrations and then hourly.
 */
export function optimizeDatabase(db: Db, atStart = false): void {
  db.$client.exec("PRAGMA analysis_limit = 1000");
  db.$client.exec(atStart ? "PRAGMA optimize = 0x10002" : "PRAGMA optimize");
}

const STATEMENT_CACHE_SIZE = 1000;

/**
 * `col = ?` makes this SQLite build re-plan the statement on every run (6-20 µs each, measured),
 * `col = +?` does not, and picks the same index: unary plus is a no-op on any value and the
 * parameter has no affinity either way. Applied to comparison operands only, never to columns.
 */
export const unaryPlusParameters = (sql: string): string => sql.replace(/(=|<>|!=|<=|>=|<|>)\s*\?(?!\d)/g, "$1 +?");

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
