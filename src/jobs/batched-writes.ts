import type { Db } from "../db/database";

type PendingWrite = { apply: () => void; resolve: () => void; reject: (error: unknown) => void };
type Batch = { queue: PendingWrite[]; scheduled: boolean };

const batches = new WeakMap<Db, Batch>();

/**
 * Queues a small write (a finished run's outcome, a delivery's result) to commit with the others
 * queued in the same event-loop turn, in one transaction: one commit per turn instead of one per
 * run keeps the event loop free for requests while many runs finish. The promise settles once the
 * write is committed, so callers still see their write before they go on.
 */
export function batchedWrite(db: Db, apply: () => void): Promise<void> {
  let batch = batches.get(db);
  if (!batch) {
    batch = { queue: [], scheduled: false };
    batches.set(db, batch);
  }
  const target = batch;
  return new Promise<void>((resolve, reject) => {
    target.queue.push({ apply, resolve, reject });
    if (target.scheduled) return;
    target.scheduled = true;
    setImmediate(() => flushBatchedWrites(db));
  });
}

/** Commits every queued write now (the runner calls it before handing runs back at shutdown). */
export function flushBatchedWrites(db: Db): void {
  const batch = batches.get(db);
  if (!batch) return;
  batch.scheduled = false;
  const writes = batch.queue;
  batch.queue = [];
  if (writes.length === 0) return;
  try {
    db.$client.transaction(() => {
      for (const write of writes) write.apply();
    }).immediate();
    for (const write of writes) write.resolve();
  } catch {
    // One failing write must not sink the others: retry them one by one, each on its own.
    for (const write of writes) {
      try {
        write.apply();
        write.resolve();
      } catch (error) {
        write.reject(error);
      }
    }
  }
}
