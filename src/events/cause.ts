/** Which consumer reaction is appending events right now, and how deep in a chain of reactions it is. */
export type EventCause = { consumer: string; depth: number };

/**
 * Set only for the synchronous duration of one consumer's `handle` (the consumer runner calls
 * `withEventCause`): every event that reaction appends, through whichever feature's write API,
 * is stamped with it. A synchronous scope cannot leak into another request's work, since nothing
 * else runs until it returns.
 */
let current: EventCause | null = null;

export async function withEventCause<T>(cause: EventCause, fn: () => T | Promise<T>): Promise<T> {
  const previous = current;
  current = cause;
  try {
    return await fn();
  } finally {
    current = previous;
  }
}

export const currentEventCause = (): EventCause | null => current;
