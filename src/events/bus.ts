import type { Db, Tx } from "../db/database";
import { deskState } from "../db/desk-state";
import { type AnyEventDefinition, asEventOf, type StoredEventOf } from "./define";
import type { StoredEvent } from "./envelope";

/**
 * The event hooks of one desk, a slot of its runtime (`eventBusOf(db)`, made on first use). `inTx`
 * hooks run inside the event's own transaction (durable follow-ups such as webhook delivery rows);
 * `committed` listeners run after commit (realtime fan-out).
 */
export type EventBus = {
  inTx: Array<InTransactionHook>;
  committed: Array<(events: StoredEvent[]) => void>;
  /** Whether appendEvent checks data against its definition (config.responseChecks: tests and development). */
  checkData: boolean;
};

/** `origin` is NewEvent.origin: what made the change, when the writer said. */
export type InTransactionHook = (tx: Tx, event: StoredEvent, origin?: string) => void | Promise<void>;

const createEventBus = (): EventBus => ({ inTx: [], committed: [], checkData: false });

export const eventBusOf = deskState("events.bus", createEventBus);

/**
 * A hook on every event, whatever its type: only for machinery that truly handles them all (the
 * search staging and the webhook fan-out). A feature names the events it reacts to with `onEvent`.
 */
export function onEveryEvent(db: Db, hook: InTransactionHook): () => void {
  const list = eventBusOf(db).inTx;
  list.push(hook);
  return () => list.splice(list.indexOf(hook), 1);
}

/**
 * A hook inside the transaction of each event of `events` (definitions from the emitting feature's
 * public file), its data typed from their schemas and narrowed by `event.type`.
 */
export function onEvent<const E extends AnyEventDefinition>(
  db: Db,
  events: readonly E[],
  hook: (tx: Tx, event: StoredEventOf<E>, origin?: string) => void | Promise<void>,
): () => void {
  const types = new Set<string>(events.map((e) => e.type));
  // Not async: every hook sees every event, and most pass it over at the cost of a Set lookup.
  return onEveryEvent(db, (tx, event, origin) =>
    types.has(event.type) ? hook(tx, asEventOf<E>(event), origin) : undefined,
  );
}

export function onEventsCommitted(db: Db, listener: (events: StoredEvent[]) => void): () => void {
  const list = eventBusOf(db).committed;
  list.push(listener);
  return () => list.splice(list.indexOf(listener), 1);
}

/** Turns the check of event data against its definition on or off for this desk. */
export function checkEventData(db: Db, on: boolean): void {
  eventBusOf(db).checkData = on;
}
