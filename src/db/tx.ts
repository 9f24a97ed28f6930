import type { Db, Tx } from "./database";

type Frame = { db: Db; tx: Tx; afterCommit: Array<() => void> };
const frames: Frame[] = [];

type NotAsync<T> = [T] extends [never] ? [] : [T] extends [PromiseLike<unknown>] ? [never] : [];

/**
 * Runs `fn` in one IMMEDIATE transaction. The callback must be synchronous: with bun:sqlite an
 * awaiting callback commits at its first await, so a Promise-returning callback is a type error
 * and, at run time, rolls back. A nested call joins the outer transaction.
 * Callbacks registered with `afterCommit` run once the outermost transaction has committed.
 */
export function withTx<T>(db: Db, fn: (tx: Tx) => T, ..._sync: NotAsync<T>): T {
  const outer = frames.at(-1);
  if (outer) return guardSync(fn(outer.tx));
  let frame: Frame | undefined;
  let result: T;
  try {
    result = db.transaction(
      (tx) => {
        frame = { db, tx, afterCommit: [] };
        frames.push(frame);
        return guardSync(fn(tx));
      },
      { behavior: "immediate" },
    );
  } finally {
    if (frame) frames.pop();
  }
  for (const callback of frame!.afterCommit) {
    try {
      callback();
    } catch (error) {
      console.error("afterCommit callback failed", error);
    }
  }
  return result;
}

function guardSync<T>(value: T): T {
  if (value && typeof (value as { then?: unknown }).then === "function") {
    throw new Error("withTx callback returned a Promise: transactions must be synchronous");
  }
  return value;
}

/** Registers work (publishing, waking a runner) to run after the current transaction commits. */
export function afterCommit(callback: () => void): void {
  const frame = frames.at(-1);
  if (!frame) throw new Error("afterCommit called outside withTx");
  frame.afterCommit.push(callback);
}

export const inTransaction = (): boolean => frames.length > 0;

/** The database whose transaction is open: lets machinery find per-database registries. */
export function currentDb(): Db {
  const frame = frames.at(-1);
  if (!frame) throw new Error("no transaction is open");
  return frame.db;
}
