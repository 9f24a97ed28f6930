import type { Db } from "../db/database";
import { commitPending, untilCommitted, withTx } from "../db/tx";

/**
 * A small write (a finished run's outcome, a delivery's result) whose caller goes on only once it
 * is committed. Writes of the same event-loop turn share one commit (see the group commit in
 * src/db/tx.ts); each is its own savepoint, so one failing write does not sink the others.
 */
export function batchedWrite(db: Db, apply: () => void): Promise<void> {
  try {
    withTx(db, apply);
  } catch (error) {
    return Promise.reject(error);
  }
  return untilCommitted(db);
}

/** Commits every pending write now (the runner calls it before handing runs back at shutdown). */
export const flushBatchedWrites = (db: Db): void => commitPending(db);
