import type { Db, Frame, Tx } from "../database";
import { activeChange, FRAME, type FramedTx } from "../change";
import { deskState } from "../desk-state";

/**
 * A change on PostgreSQL: one SERIALIZABLE transaction, so concurrent changes (on this node or
 * another) behave as if they ran one at a time, as they do on the single SQLite connection: a
 * read-then-write (a counter, a uniqueness check, the event seq) needs no lock of its own. When
 * PostgreSQL cannot order two changes (SQLSTATE 40001, serialization failure) or they deadlock
 * (40P01), it aborts one; the body runs again from the start, up to MAX_ATTEMPTS times, and its
 * `afterCommit` callbacks run once, after the attempt that committed.
 */
const MAX_ATTEMPTS = 30;
/** The longest random pause before a retry, in milliseconds. */
const MAX_PAUSE_MS = 50;
const RETRYABLE = new Set(["40001", "40P01"]);

type PgTransactor = {
  transaction<T>(body: (tx: Tx) => Promise<T>, config: { isolationLevel: "serializable" }): Promise<T>;
};

/** The desk's retried attempts, for /metrics and the tests that want to see a retry happen. */
export const serializationRetries = deskState("db.serialization-retries", () => ({ count: 0 }));

/**
 * Changes of one node that collided once take their retries one at a time: fifty changes racing
 * for one counter row (a busy workspace's event seq) would otherwise collide again on every attempt,
 * while in single file each retry only has to get past the changes of other nodes.
 */
const retryLane = deskState("db.retry-lane", () => ({ tail: Promise.resolve() }));

export async function transactOnPostgres<T>(owner: Db, fn: (tx: Tx) => Promise<T> | T): Promise<T> {
  const first = await attemptChange(owner, fn);
  if (first.done) return first.result;
  for (let attempt = 2; ; attempt++) {
    // A short random pause, growing with each attempt, so the changes that collided do not collide again.
    await Bun.sleep(Math.random() * Math.min(MAX_PAUSE_MS, 2 ** attempt));
    const outcome = await inRetryLane(owner, () => attemptChange(owner, fn, attempt === MAX_ATTEMPTS));
    if (outcome.done) return outcome.result;
  }
}

async function inRetryLane<T>(owner: Db, run: () => Promise<T>): Promise<T> {
  const lane = retryLane(owner);
  const previous = lane.tail;
  let free!: () => void;
  lane.tail = new Promise<void>((resolve) => {
    free = resolve;
  });
  await previous;
  try {
    return await run();
  } finally {
    free();
  }
}

type Outcome<T> = { done: true; result: T } | { done: false };

/** One attempt: committed, or failed in a way worth another attempt (anything else, or the last attempt's failure, throws). */
async function attemptChange<T>(owner: Db, fn: (tx: Tx) => Promise<T> | T, last = false): Promise<Outcome<T>> {
  const frame: Frame = { db: owner, tx: undefined as unknown as Tx, afterCommit: [], pending: true };
  try {
    const result = await (owner as unknown as PgTransactor).transaction(
      async (tx) => {
        (tx as FramedTx)[FRAME] = frame;
        Object.assign(tx, { $runtime: owner.$runtime });
        frame.tx = tx;
        return await activeChange.run(frame, fn, tx);
      },
      { isolationLevel: "serializable" },
    );
    frame.pending = false;
    runAfterCommit(frame);
    return { done: true, result };
  } catch (error) {
    frame.pending = false;
    if (last || !isRetryable(error)) throw error;
    serializationRetries(owner).count++;
    return { done: false };
  }
}

function runAfterCommit(frame: Frame): void {
  for (const callback of frame.afterCommit) {
    try {
      callback();
    } catch (error) {
      console.error("afterCommit callback failed", error);
    }
  }
}

/** SQLSTATE of a PostgreSQL error, also when drizzle wrapped it (DrizzleQueryError's `cause`). */
export function sqlStateOf(error: unknown): string | undefined {
  for (let e: unknown = error, depth = 0; e && typeof e === "object" && depth < 4; depth++) {
    const errno = (e as { errno?: unknown }).errno;
    if (typeof errno === "string" && /^[0-9A-Z]{5}$/.test(errno)) return errno;
    e = (e as { cause?: unknown }).cause;
  }
  return undefined;
}

const isRetryable = (error: unknown): boolean => RETRYABLE.has(sqlStateOf(error) ?? "");
