import type { Db, Tx } from "../db/database";
import type { StoredEvent } from "./envelope";

/**
 * Per-database registries. `inTx` hooks run inside the event's own transaction (durable follow-ups
 * such as webhook delivery rows); `committed` listeners run after commit (realtime fan-out).
 */
type Registry = {
  inTx: Array<InTransactionHook>;
  committed: Array<(events: StoredEvent[]) => void>;
  /** Whether appendEvent checks data against its definition (config.responseChecks: tests and development). */
  checkData: boolean;
};

/** `origin` is NewEvent.origin: what made the change, when the writer said. */
export type InTransactionHook = (tx: Tx, event: StoredEvent, origin?: string) => void;

const registries = new WeakMap<Db, Registry>();

function registryOf(db: Db): Registry {
  let registry = registries.get(db);
  if (!registry) {
    registry = { inTx: [], committed: [], checkData: false };
    registries.set(db, registry);
  }
  return registry;
}

export function onEventInTransaction(db: Db, hook: InTransactionHook): () => void {
  const list = registryOf(db).inTx;
  list.push(hook);
  return () => list.splice(list.indexOf(hook), 1);
}

export function onEventsCommitted(db: Db, listener: (events: StoredEvent[]) => void): () => void {
  const list = registryOf(db).committed;
  list.push(listener);
  return () => list.splice(list.indexOf(listener), 1);
}

/** Turns the check of event data against its definition on or off for this database. */
export function checkEventData(db: Db, on: boolean): void {
  registryOf(db).checkData = on;
}

export const hooksOf = (db: Db) => registryOf(db);
