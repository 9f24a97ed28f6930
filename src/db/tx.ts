import type { Db, Frame, Queryable, Tx, TxRuntime } from "./database";
import type { Batch } from "./runtime";
import { activeChange, FRAME, type FramedTx, stillPendingError } from "./change";
import { processEngine } from "../config/engine";
import { transactOnPostgres } from "./postgres/transact";
import { preparedFor, sqliteOf } from "./sqlite/prepared";
import { noteStorageFailure, noteStorageWrite } from "./storage";

/**
 * Group commit. A COMMIT writes every page the transaction touched to the WAL, one system call per
 * page: for a typical change (a row, its event, its audit entry and their indexes) that was ~110 µs
 * of a ~140 µs write (measured). So the transactions of one event-loop turn share one SQLite
 * transaction, the *batch*: each `transact` is a SAVEPOINT inside it (a failure rolls back that
 * savepoint only), and the batch commits once, when the turn ends or after `MAX_SAVEPOINTS`.
 *
 * Nothing leaves the process before its commit: the HTTP layer and the SMTP receiver wait for
 * `untilCommitted` before they answer, `afterCommit` callbacks (publishing events, waking the job
 * runner) run after the batch's COMMIT, and if the COMMIT fails every waiter sees the error.
 */
const MAX_SAVEPOINTS = 256;

/** Group commit, the batch and the turn are SQLite's; on PostgreSQL each change commits itself. */
const ON_POSTGRES = processEngine === "postgres";

/** The transaction-control statements, prepared once per connection. */
const statementsOf = preparedFor((sqlite) => ({
  begin: sqlite.prepare("BEGIN IMMEDIATE"),
  beginRead: sqlite.prepare("BEGIN"),
  totalChanges: sqlite.prepare<{ n: number }, []>("SELECT total_changes() AS n"),
  savepoint: sqlite.prepare("SAVEPOINT desk_change"),
  release: sqlite.prepare("RELEASE desk_change"),
  rollbackTo: sqlite.prepare("ROLLBACK TO desk_change"),
  commit: sqlite.prepare("COMMIT"),
}));

/**
 * Runs `fn` as one atomic change: all of it or none of it is stored. A nested call (given the
 * outer change's `tx`) joins the outer change. Callbacks registered with `afterCommit` run once the
 * change is committed.
 *
 * The body is async so that the same code runs on an asynchronous engine; on SQLite, drizzle's
 * builders run synchronously when awaited, so a body that awaits only the store finishes within the
 * microtasks of the turn it started in, inside the turn's batch. Bodies of one connection run one at
 * a time (a FIFO lock: a body awaiting the store lets other microtasks run, and their changes must
 * not land in its savepoint), and a body still pending when the turn ends (it awaited something
 * other than the store: a timer, the network, a file) fails and rolls back: it would hold the
 * connection and the turn's commit.
 */
export async function transact<T>(db: Queryable, fn: (tx: Tx) => Promise<T> | T): Promise<T> {
  const outer = (db as FramedTx)[FRAME];
  const owner = outer ? outer.db : (db as Db);
  const runtime = owner.$runtime;
  if (outer && (ON_POSTGRES ? outer.pending : runtime.frames.at(-1) === outer)) return fn(outer.tx);
  // Called from inside a body (through a function that was handed the database, not the tx): join
  // it, as waiting for the connection that body holds would wait for ever.
  const current = activeChange.getStore();
  if (current?.pending && current.db === owner) return fn(current.tx);
  // PostgreSQL's changes are transactions of their own on a pool, run side by side (src/db/postgres/transact.ts).
  if (ON_POSTGRES) return transactOnPostgres(owner, fn);
  if (runtime.locked) await new Promise<void>((resolve) => runtime.waiting.push(resolve));
  else runtime.locked = true;
  // Each change gets its own handle so per-change registries (events awaiting publication) can key on it.
  const tx = Object.create(handlePrototypeOf(owner)) as FramedTx;
  const frame: Frame = { db: owner, tx, afterCommit: [], pending: true };
  tx[FRAME] = frame;
  let batch: Batch;
  try {
    batch = writeBatch(owner);
    statementsOf(owner).savepoint.run();
  } catch (error) {
    noteStorageFailure(owner, error);
    endFrame(runtime, frame);
    throw error;
  }
  const statements = statementsOf(owner);
  runtime.frames.push(frame);
  let result: T;
  try {
    result = await activeChange.run(frame, fn, frame.tx);
    if (!frame.pending) throw stillPendingError();
    statements.release.run();
  } catch (error) {
    if (frame.pending) {
      undoChange(owner, batch, error);
      noteStorageFailure(owner, error);
      endFrame(runtime, frame);
    }
    throw error;
  }
  endFrame(runtime, frame);
  batch.afterCommit.push(...frame.afterCommit);
  batch.savepoints++;
  if (batch.savepoints >= MAX_SAVEPOINTS) commitPending(owner);
  return result;
}

type Session = { prepareQuery(...args: unknown[]): unknown };

/**
 * A body the watchdog abandoned may still wake up later and query through its `tx`: by then its
 * savepoint is gone and its statements would land in someone else's change. Every handle of a
 * database shares one prototype whose connection (raw statements) and session (drizzle's builders)
 * refuse to serve a closed change.
 */
const handlePrototypes = new WeakMap<Db, object>();
function handlePrototypeOf(db: Db): object {
  let prototype = handlePrototypes.get(db);
  if (prototype) return prototype;
  const open = (db as unknown as { session: Session }).session;
  const closed: Session = Object.create(open);
  closed.prepareQuery = () => {
    throw stillPendingError();
  };
  prototype = Object.create(db, {
    $client: {
      get(this: FramedTx) {
        if (this[FRAME]?.pending === false) throw stillPendingError();
        return sqliteOf(db);
      },
    },
    session: {
      get(this: FramedTx) {
        return this[FRAME]?.pending === false ? closed : open;
      },
    },
  }) as object;
  handlePrototypes.set(db, prototype);
  return prototype;
}

/** Closes the change and hands the connection to the next body waiting, if any. */
function endFrame(runtime: TxRuntime, frame: Frame): void {
  frame.pending = false;
  if (runtime.frames.at(-1) === frame) runtime.frames.pop();
  const next = runtime.waiting.shift();
  if (next) next();
  else runtime.locked = false;
}

/** The watchdog, at the end of the turn: a body still open is rolled back and its connection freed. */
function abandonPending(db: Db): void {
  const frame = db.$runtime.frames.at(-1);
  if (!frame?.pending) return;
  const error = stillPendingError();
  console.error(error);
  const batch = db.$runtime.batch;
  if (batch) undoChange(db, batch, error);
  endFrame(db.$runtime, frame);
}

/**
 * The turn's write batch. A turn whose requests only read so far holds a deferred read transaction;
 * upgrading that to a write fails at once with "database is locked" when another connection holds
 * SQLite's write lock or has moved the WAL on (SQLite calls no busy handler for an upgrade), which
 * was seen as a 500 on POST /v1/tickets beside read workers finishing long statements. So the reads
 * commit (nothing to write, microseconds) and the change begins IMMEDIATE, which waits for the lock.
 */
function writeBatch(db: Db): Batch {
  const open = db.$runtime.batch;
  if (open?.mode === "read") commitPending(db);
  return openBatch(db, "write");
}

function openBatch(db: Db, mode: "write" | "read" = "write"): Batch {
  const runtime = db.$runtime;
  const open = runtime.batch;
  if (open) return open;
  const statements = statementsOf(db);
  (mode === "write" ? statements.begin : statements.beginRead).run();
  let resolve!: () => void;
  let reject!: (error: unknown) => void;
  const committed = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  // Waiters see a failure through their own await; nobody waiting is not an unhandled rejection.
  committed.catch(() => {});
  const batch: Batch = {
    mode,
    savepoints: 0,
    sharers: 0,
    changesAtOpen: statements.totalChanges.get()!.n,
    afterCommit: [],
    committed,
    resolve,
    reject,
  };
  runtime.batch = batch;
  setImmediate(() => {
    abandonPending(db);
    if (runtime.batch === batch) commitPending(db);
  });
  return batch;
}

/**
 * Lets the reads of this turn share one transaction too. Outside a transaction every statement
 * takes and drops SQLite's file lock (two fcntl calls, more than a primary-key read itself);
 * the HTTP layer calls this per request, so the requests of a turn lock once. A write later in
 * the turn commits these reads and opens a write batch (writeBatch).
 */
export function shareTurn(db: Db): void {
  if (ON_POSTGRES) return;
  const runtime = db.$runtime;
  if (runtime.frames.length > 0) return;
  const open = runtime.batch;
  // A caller that never yields to the event loop still commits every MAX_SAVEPOINTS requests.
  if (open && ++open.sharers < MAX_SAVEPOINTS) return;
  if (open) commitPending(db);
  openBatch(db, "read");
}

/** Rolls back the failed change; if SQLite has already abandoned the whole transaction, the batch fails. */
function undoChange(db: Db, batch: Batch, error: unknown): void {
  if (sqliteOf(db).inTransaction) {
    const statements = statementsOf(db);
    try {
      statements.rollbackTo.run();
      statements.release.run();
      return;
    } catch {
      // Fall through: the transaction is in no state to continue.
    }
  }
  failBatch(db, batch, error);
}

function failBatch(db: Db, batch: Batch, error: unknown): void {
  if (db.$runtime.batch === batch) db.$runtime.batch = null;
  try {
    if (sqliteOf(db).inTransaction) sqliteOf(db).run("ROLLBACK");
  } catch {
    // Already rolled back by SQLite.
  }
  batch.reject(error);
}

/**
 * Work that joins each batch that wrote something, just before its COMMIT and outside every
 * savepoint (bulk index maintenance). A hook that throws fails the batch like a failed COMMIT.
 */
export function beforeEachCommit(db: Db, hook: () => void): () => void {
  const hooks = db.$runtime.beforeCommit;
  hooks.push(hook);
  return () => {
    const at = hooks.indexOf(hook);
    if (at >= 0) hooks.splice(at, 1);
  };
}

/** Commits the open batch now (the end of a turn, shutdown, or before a raw transaction of one's own). */
export function commitPending(db: Db): void {
  const runtime = db.$runtime;
  const batch = runtime.batch;
  if (!batch || runtime.frames.length > 0) return;
  try {
    const hooks = runtime.beforeCommit;
    if (hooks.length && hasPendingCommit(db)) for (const hook of hooks) hook();
  } catch (error) {
    noteStorageFailure(db, error);
    failBatch(db, batch, error);
    return;
  }
  runtime.batch = null;
  try {
    statementsOf(db).commit.run();
  } catch (error) {
    noteStorageFailure(db, error);
    failBatch(db, batch, error);
    return;
  }
  if (batch.savepoints > 0) noteStorageWrite(db);
  batch.resolve();
  for (const callback of batch.afterCommit) {
    try {
      callback();
    } catch (error) {
      console.error("afterCommit callback failed", error);
    }
  }
}

/**
 * Settles once every change made so far on `db` is committed (at once when none is pending);
 * rejects if their commit failed. Answer a client only after this.
 */
export function untilCommitted(db: Db): Promise<void> {
  return db.$runtime.batch?.committed ?? Promise.resolve();
}

/**
 * The one rule of every door to the outside world (HTTP answers, the SMTP receiver's reply, the IMAP
 * poller's flag, a socket's replay, a job's start): nothing it says may get ahead of the commit of
 * the changes it reports. Call after the work and before answering; await what it returns, if
 * anything (undefined when nothing is pending, so the common path allocates no promise).
 * `reads`: the answer reports only changes made through transact (a GET): writes outside one (a key's
 * last use, a hint) need not wait.
 */
export function untilDurable(db: Db, reads = false): Promise<void> | undefined {
  const batch = db.$runtime.batch;
  if (!batch) return undefined;
  return (reads ? hasPendingChanges(db) : hasPendingCommit(db)) ? batch.committed : undefined;
}

/**
 * A small write (a finished run's outcome, a delivery's result) whose caller goes on only once it
 * is committed: transact, then untilCommitted. Writes of the same turn share one commit; each is its
 * own savepoint, so one failing write does not sink the others.
 */
export async function batchedWrite(db: Db, apply: (tx: Tx) => Promise<void> | void): Promise<void> {
  await transact(db, apply);
  await untilCommitted(db);
}

/** True while a change made through transact waits for its commit. */
export function hasPendingChanges(db: Db): boolean {
  return (db.$runtime.batch?.savepoints ?? 0) > 0;
}

/** True while anything written on `db` (also outside transact) waits for its commit; reads sharing a turn do not count. */
export function hasPendingCommit(db: Db): boolean {
  const batch = db.$runtime.batch;
  return batch !== null && (batch.savepoints > 0 || statementsOf(db).totalChanges.get()!.n !== batch.changesAtOpen);
}

/** Registers work (publishing, waking a runner) to run after the change of `tx` commits. */
export function afterCommit(tx: Tx, callback: () => void): void {
  const frame = (tx as FramedTx)[FRAME];
  if (!frame) throw new Error("afterCommit needs a transaction handle from transact");
  frame.afterCommit.push(callback);
}

/** Throws when `db` is the handle of a change that has ended (see handlePrototypeOf). */
export function assertOpen(db: Queryable): void {
  if ((db as FramedTx)[FRAME]?.pending === false) throw stillPendingError();
}

/** The database a transaction handle belongs to (a database is its own). */
export function dbOf(tx: Queryable): Db {
  const frame = (tx as FramedTx)[FRAME];
  return frame ? frame.db : (tx as Db);
}

/** True inside a transact callback on `db`, where a rollback of one's own would undo the caller's work too. */
export const insideChange = (db: Db): boolean => {
  const current = activeChange.getStore();
  return current?.pending === true && current.db === db;
};
