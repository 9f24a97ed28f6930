import type { Db, Tx } from "../db/database";
import type { StoredEvent } from "./envelope";

/**
 * The event hooks of one desk, part of its runtime (`db.$runtime.events`, built at start by
 * `createRuntime`). `inTx` hooks run inside the event's own transaction (durable follow-ups such as
 * webhook delivery rows); `committed` listeners run after commit (realtime fan-out).
 */
export type EventBus = {
  inTx: Array<InTransactionHook>;
  committed: Array<(events: StoredEvent[]) => void>;
  /** Whether appendEvent checks data against its definition (config.responseChecks: tests and development). */
  checkData: boolean;
};

/** `origin` is NewEvent.origin: what made the change, when the writer said. */
export type InTransactionHook = (tx: Tx, event: StoredEvent, origin?: string) => void;

export const createEventBus = (): EventBus => ({ inTx: [], committed: [], checkData: false });

export function onEventInTransaction(db: Db, hook: InTransactionHook): () => void {
  const list = db.$runtime.events.inTx;
  list.push(hook);
  return () => list.splice(list.indexOf(hook), 1);
}

export function onEventsCommitted(db: Db, listener: (events: StoredEvent[]) => void): () => void {
  const list = db.$runtime.events.committed;
  list.push(listener);
  return () => list.splice(list.indexOf(listener), 1);
}

/** Turns the check of event data against its definition on or off for this desk. */
export function checkEventData(db: Db, on: boolean): void {
  db.$runtime.events.checkData = on;
}
