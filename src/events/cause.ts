import type { Tx } from "../db/database";

/** Which consumer reaction is appending events right now, and how deep in a chain of reactions it is. */
export type EventCause = { consumer: string; depth: number };

/**
 * Set on a change (its transaction handle) for the duration of one consumer's `handle` (the
 * consumer runner calls `withEventCause`): every event that reaction appends, through whichever
 * feature's write API, is stamped with it. Kept on the handle, not in a module variable, because a
 * body awaiting the store lets other requests' code run meanwhile: a cause in a variable would stamp
 * their events too. Nested changes join their outer change's handle, so they see its cause.
 */
const causes = new WeakMap<Tx, EventCause>();

export async function withEventCause<T>(tx: Tx, cause: EventCause, fn: () => T | Promise<T>): Promise<T> {
  const previous = causes.get(tx);
  causes.set(tx, cause);
  try {
    return await fn();
  } finally {
    if (previous) causes.set(tx, previous);
    else causes.delete(tx);
  }
}

export const currentEventCause = (tx: Tx): EventCause | null => causes.get(tx) ?? null;
