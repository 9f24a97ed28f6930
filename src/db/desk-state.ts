import type { Db } from "./database";

/**
 * State a feature or machinery folder keeps for the life of one desk (its open IMAP sessions, a
 * cache of rows, the event hooks), held by the desk's runtime (`db.$runtime.states`) rather than by
 * a module-level map keyed by database: several desks run in one test process, and each gets its
 * own, made on first use and gone with the desk. Declare it at module scope and read it through the desk's database:
 * `const sessionsOf = deskState("inbound.imap-sessions", () => new Set<ImapFlow>()); sessionsOf(deps.db)`.
 * A hot path reads it once where it is set up (a hook's registration), not per call.
 */
export function deskState<T>(name: string, create: () => T): (db: Db) => T {
  const slot = Symbol(name);
  return (db) => {
    const states = db.$runtime.states;
    if (slot in states) return states[slot] as T;
    const state = create();
    states[slot] = state;
    return state;
  };
}
