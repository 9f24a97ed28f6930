import type { Logger } from "../lib/logger";
import { DeskError } from "../lib/errors";
import type { Db, Queryable } from "./database";
import { untilDurable } from "./tx";

/**
 * Slow reads off the event loop. One connection in one thread serves every request, so a broad
 * full-text query (~0.5 s at 1M tickets) or a report over a large workspace would stall all of
 * them. Reads whose cost grows with the workspace are named here (`defineRead`) and run on a small
 * pool of read-only WAL connections, each in a Worker thread that imports the same definitions
 * (src/read-worker.ts lists them): only the name, the parameters and the answer cross threads.
 *
 * bun:sqlite has no `sqlite3_interrupt` or progress handler, so a read past its budget answers 503
 * `query_timeout` at once and a fresh worker takes its place. A thread inside SQLite only stops when
 * its statement returns (measured: `terminate()` does not preempt native code, and the worker's
 * `close` event can come seconds after), which the search caps bound; so the old worker is retired:
 * its late answer is dropped and it is terminated then. While `workers` retired threads still run,
 * no further replacement starts, so stuck statements never hold more than twice the pool's threads.
 *
 * Read-your-writes: a reader sees only committed data, and changes commit when their turn ends
 * (group commit, src/db/tx.ts); so a read asked for after changes made in this thread starts once
 * they are committed (a job's or a test's write, then a list that must show it).
 */
export type ReadDefinition<P, R> = {
  readonly name: string;
  readonly run: (db: Queryable, params: P) => R | Promise<R>;
};

/** A named read both threads know. `params` and the answer must survive structured cloning (no functions). */
export const defineRead = <P, R>(
  name: string,
  run: (db: Queryable, params: P) => R | Promise<R>,
): ReadDefinition<P, R> => ({
  name,
  run,
});

export type ReadPool = {
  /** Runs `read` on a reader (in this thread when the pool is off); counted against `workspaceId`'s queue. */
  run<P, R>(read: ReadDefinition<P, R>, workspaceId: string, params: P): Promise<R>;
  /** Workers up now (0 until the first slow read: an idle desk starts none). */
  running(): number;
  stop(): void;
};

export type ReadPoolOptions = {
  db: Db;
  path: string;
  /** DESK_READ_WORKERS: 0 runs every read in this thread (no budget). */
  workers: number;
  /** DESK_READ_TIMEOUT: how long one read may run on a worker. */
  budgetMs: number;
  /** Reads one workspace may have waiting or running at once; past it, 429. */
  perWorkspace?: number;
  /** Reads waiting for a worker across all workspaces; past it, 429. */
  queued?: number;
  /** A new worker running src/read-worker.ts (given by the composition root: machinery imports no feature). */
  spawn: () => Worker;
  logger: Logger;
  /** Extra modules whose exported reads the workers learn (tests). */
  modules?: string[];
};

export const READS_PER_WORKSPACE = 4;
export const READS_QUEUED = 32;

/** What a pooled route's OpenAPI description says of its limits (README "Security" too). */
export const READ_POOL_NOTE = `Runs on the read pool, off the request thread (DESK_READ_WORKERS, default 2). It sees every change stored before it was asked. Past DESK_READ_TIMEOUT (default 10 s) it answers 503 \`query_timeout\`: narrow the query and try again. With ${READS_PER_WORKSPACE} slow reads of the workspace under way, or ${READS_QUEUED} waiting in all, it answers 429 \`read_queue_full\` with Retry-After.`;
/** How long a new worker may take to open its connection and load the definitions. */
const START_TIMEOUT_MS = 15_000;

type Call = {
  name: string;
  params: unknown;
  workspaceId: string;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
};

type Slot = { worker: Worker; call: Call | null; timer: ReturnType<typeof setTimeout> | null; nextId: number };

/** What a worker answers about one call. */
export type ReadReply =
  | { id: number; ok: true; value: unknown }
  | {
      id: number;
      ok: false;
      error: { status: number; code: string; detail: string; errors?: unknown; headers?: unknown };
    }
  | { id: number; ok: false; message: string };

export const queryTimeout = (budgetMs: number) =>
  new DeskError(
    503,
    "query_timeout",
    `The query ran past its ${budgetMs} ms budget and was stopped. Narrow it (more or rarer words, a shorter date range, a filter) and try again.`,
  );

const readsBusy = () =>
  new DeskError(429, "read_queue_full", "Too many slow reads are waiting; try again shortly.", undefined, {
    "Retry-After": "1",
  });

export function createReadPool(options: ReadPoolOptions): ReadPool {
  const perWorkspace = options.perWorkspace ?? READS_PER_WORKSPACE;
  const queuedMax = options.queued ?? READS_QUEUED;
  const inThread = options.workers <= 0 || options.path === ":memory:" || options.path === "";
  const pool: PoolState = {
    options,
    unavailable: inThread,
    stopped: false,
    byName: new Map(),
    waiting: [],
    inFlight: new Map(),
    slots: Array.from({ length: Math.max(0, options.workers) }, () => null),
    starting: new Set(),
    retiring: new Set(),
  };
  const { byName, waiting, inFlight, slots } = pool;
  return {
    run<P, R>(read: ReadDefinition<P, R>, workspaceId: string, params: P): Promise<R> {
      byName.set(read.name, read as ReadDefinition<unknown, unknown>);
      if (pool.unavailable || pool.stopped) return Promise.resolve().then(() => read.run(options.db, params));
      if ((inFlight.get(workspaceId) ?? 0) >= perWorkspace || waiting.length >= queuedMax)
        return Promise.reject(readsBusy());
      inFlight.set(workspaceId, (inFlight.get(workspaceId) ?? 0) + 1);
      const uncommitted = untilDurable(options.db, true);
      return new Promise<R>((resolve, reject) => {
        const enqueue = () => {
          waiting.push({ name: read.name, params, workspaceId, resolve: resolve as (v: unknown) => void, reject });
          dispatch(pool);
        };
        // A failed commit leaves the committed state, which is what the worker reads.
        if (uncommitted) uncommitted.then(enqueue, enqueue);
        else enqueue();
      });
    },
    running: () => slots.filter(Boolean).length,
    stop() {
      pool.stopped = true;
      for (const worker of pool.retiring) worker.terminate();
      pool.retiring.clear();
      for (const [index, slot] of slots.entries()) {
        if (!slot) continue;
        slot.worker.terminate();
        slots[index] = null;
        finish(pool, index, slot)?.reject(new DeskError(503, "unavailable", "Desk is stopping."));
      }
      for (const call of waiting.splice(0)) {
        release(pool, call);
        call.reject(new DeskError(503, "unavailable", "Desk is stopping."));
      }
    },
  };
}

/** One pool's state, shared by the functions that start workers and hand them calls. */
type PoolState = {
  options: ReadPoolOptions;
  /** Workers cannot run (off, or given up on): every read runs in this thread. */
  unavailable: boolean;
  stopped: boolean;
  byName: Map<string, ReadDefinition<unknown, unknown>>;
  waiting: Call[];
  inFlight: Map<string, number>;
  slots: Array<Slot | null>;
  starting: Set<number>;
  /** Workers past their budget still finishing a statement. */
  retiring: Set<Worker>;
};

function release(pool: PoolState, call: Call): void {
  const left = (pool.inFlight.get(call.workspaceId) ?? 1) - 1;
  if (left > 0) pool.inFlight.set(call.workspaceId, left);
  else pool.inFlight.delete(call.workspaceId);
}

function runHere(pool: PoolState, call: Call): void {
  release(pool, call);
  try {
    const read = pool.byName.get(call.name);
    if (!read) throw new Error(`unknown read ${call.name}`);
    call.resolve(read.run(pool.options.db, call.params));
  } catch (error) {
    call.reject(error);
  }
}

function finish(pool: PoolState, index: number, slot: Slot): Call | null {
  if (slot.timer) clearTimeout(slot.timer);
  slot.timer = null;
  const call = slot.call;
  slot.call = null;
  if (call) release(pool, call);
  if (pool.slots[index] === slot) dispatch(pool);
  return call;
}

function startWorker(pool: PoolState, index: number): void {
  const { options, starting, slots } = pool;
  starting.add(index);
  let worker: Worker;
  try {
    worker = options.spawn();
  } catch (error) {
    starting.delete(index);
    return giveUp(pool, error);
  }
  // A thread stuck in a statement must never keep the process from exiting.
  // Bun's Worker has unref(); the DOM type the project compiles against does not name it.
  (worker as Worker & { unref?: () => void }).unref?.();
  const slot: Slot = { worker, call: null, timer: null, nextId: 1 };
  const startTimer = setTimeout(() => {
    worker.terminate();
    giveUp(pool, "did not start in time");
  }, START_TIMEOUT_MS);
  worker.onmessage = (event: MessageEvent<ReadReply | { ready: true } | { failed: string }>) => {
    const data = event.data;
    if ("ready" in data) {
      clearTimeout(startTimer);
      starting.delete(index);
      if (pool.stopped) return worker.terminate();
      slots[index] = slot;
      return dispatch(pool);
    }
    if ("failed" in data) {
      clearTimeout(startTimer);
      worker.terminate();
      return giveUp(pool, data.failed);
    }
    answer(pool, index, slot, data);
  };
  worker.onerror = (event) => {
    clearTimeout(startTimer);
    options.logger.error({ err: event.message }, "read worker failed");
    worker.terminate();
    if (slots[index] !== slot) {
      starting.delete(index);
      return giveUp(pool, event.message);
    }
    slots[index] = null;
    finish(pool, index, slot)?.reject(new Error(`read worker failed: ${event.message}`));
    dispatch(pool);
  };
  worker.postMessage({ type: "open", path: options.path, modules: options.modules ?? [] });
}

/** A worker's reply to the call it holds; a late reply to an earlier call is dropped. */
function answer(pool: PoolState, index: number, slot: Slot, data: ReadReply): void {
  if (!slot.call || data.id !== slot.nextId - 1) return;
  const call = finish(pool, index, slot);
  if (!call) return;
  if (data.ok) call.resolve(data.value);
  else if ("error" in data)
    call.reject(
      new DeskError(
        data.error.status,
        data.error.code,
        data.error.detail,
        data.error.errors as DeskError["errors"],
        data.error.headers as DeskError["headers"],
      ),
    );
  else call.reject(new Error(data.message));
}

/** Workers cannot run here (a build without them, a broken file): every read runs in this thread from now on. */
function giveUp(pool: PoolState, reason: unknown): void {
  if (!pool.unavailable)
    pool.options.logger.warn({ err: String(reason) }, "read workers unavailable; slow reads run on the main thread");
  pool.unavailable = true;
  for (const call of pool.waiting.splice(0)) runHere(pool, call);
}

function dispatch(pool: PoolState): void {
  const { slots, waiting } = pool;
  if (pool.stopped) return;
  if (pool.unavailable) {
    for (const call of waiting.splice(0)) runHere(pool, call);
    return;
  }
  for (let index = 0; index < slots.length && waiting.length > 0; index++) {
    const slot = slots[index];
    if (!slot) {
      if (!pool.starting.has(index) && pool.retiring.size <= slots.length) startWorker(pool, index);
      continue;
    }
    if (slot.call) continue;
    const call = waiting.shift()!;
    slot.call = call;
    const id = slot.nextId++;
    slot.timer = setTimeout(() => retire(pool, index, slot), pool.options.budgetMs);
    slot.worker.postMessage({ type: "run", id, name: call.name, params: call.params });
  }
}

/** The call ran past its budget: it answers 503 now, and its worker is terminated once its statement returns. */
function retire(pool: PoolState, index: number, slot: Slot): void {
  pool.retiring.add(slot.worker);
  const retired = () => {
    slot.worker.terminate();
    pool.retiring.delete(slot.worker);
    dispatch(pool);
  };
  slot.worker.onmessage = retired;
  slot.worker.onerror = retired;
  pool.slots[index] = null;
  finish(pool, index, slot)?.reject(queryTimeout(pool.options.budgetMs));
  dispatch(pool);
}

/** What the pool posts to a worker. */
type WorkerRequest =
  | { type: "open"; path: string; modules: string[] }
  | { type: "run"; id: number; name: string; params: never };

/** The worker's side: opens a read-only connection and answers named reads (src/read-worker.ts wires it). */
export function serveReads(
  scope: { onmessage: ((event: MessageEvent<WorkerRequest>) => unknown) | null; postMessage(message: unknown): void },
  reads: ReadonlyArray<ReadDefinition<never, unknown>>,
  open: (path: string) => Db,
): void {
  const byName = new Map<string, ReadDefinition<never, unknown>>(reads.map((r) => [r.name, r]));
  let db: Db | null = null;
  scope.onmessage = async (event) => {
    const message = event.data;
    if (message.type === "open") {
      try {
        for (const url of message.modules) {
          for (const value of Object.values(await import(url))) if (isRead(value)) byName.set(value.name, value);
        }
        db = open(message.path);
        scope.postMessage({ ready: true });
      } catch (error) {
        scope.postMessage({ failed: String(error) });
      }
      return;
    }
    const read = byName.get(message.name);
    try {
      if (!read || !db) throw new Error(`unknown read ${message.name}`);
      scope.postMessage({ id: message.id, ok: true, value: await read.run(db, message.params) } satisfies ReadReply);
    } catch (error) {
      scope.postMessage(
        (error instanceof DeskError
          ? { id: message.id, ok: false, error: { ...error.toBody(), headers: error.headers } }
          : { id: message.id, ok: false, message: String(error) }) satisfies ReadReply,
      );
    }
  };
}

const isRead = (value: unknown): value is ReadDefinition<never, unknown> =>
  typeof value === "object" &&
  value !== null &&
  typeof (value as { name?: unknown }).name === "string" &&
  typeof (value as { run?: unknown }).run === "function";
