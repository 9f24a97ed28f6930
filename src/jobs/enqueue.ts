import type { Db, Tx } from "../db/database";
import { afterCommit, currentDb } from "../db/tx";
import { newId } from "../lib/ids";
import { DEFAULT_RETRY } from "./define";
import { jobs } from "./jobs.table";

export type EnqueueOptions = {
  runAt?: Date;
  workspaceId?: string | null;
  /** While a queued or running job has this key, another enqueue with it is skipped. */
  uniqueKey?: string;
  maxAttempts?: number;
};

const wakers = new WeakMap<Db, () => void>();

/** The runner registers how to wake it; enqueue calls it after commit so new work starts at once. */
export function registerWaker(db: Db, wake: () => void): void {
  wakers.set(db, wake);
}

/**
 * Adds a job inside the caller's transaction, so the job exists exactly when the change does.
 * Returns the job id, or null when a job with the same unique key is already waiting.
 */
export function enqueue(tx: Tx, kind: string, payload: unknown, options: EnqueueOptions = {}): string | null {
  const now = new Date().toISOString();
  const id = newId();
  const inserted = tx
    .insert(jobs)
    .values({
      id,
      kind,
      workspaceId: options.workspaceId ?? null,
      payload: payload ?? {},
      state: "queued",
      runAt: (options.runAt ?? new Date()).toISOString(),
      attempts: 0,
      maxAttempts: options.maxAttempts ?? DEFAULT_RETRY.maxAttempts,
      uniqueKey: options.uniqueKey ?? null,
      createdAt: now,
      updatedAt: now,
    })
    .onConflictDoNothing()
    .returning({ id: jobs.id })
    .all();
  if (inserted.length === 0) return null;
  const db = currentDb();
  afterCommit(() => wakers.get(db)?.());
  return id;
}
