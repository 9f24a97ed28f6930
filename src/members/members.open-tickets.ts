import type { Db, Queryable } from "../db/database";

/** Counts each member's open tickets: user id → count (missing = 0). */
export type OpenTicketCounter = (db: Queryable, workspaceId: string, userIds: string[]) => Map<string, number>;

const counters = new WeakMap<Db, OpenTicketCounter>();

/**
 * The tickets feature owns the `tickets` table, so it supplies the count: it calls this from
 * `registerFeatureHooks`. Until it does, every member shows `open_tickets: 0` (members never probe
 * for another feature's table at run time).
 */
export function registerOpenTicketCounter(db: Db, counter: OpenTicketCounter): void {
  counters.set(db, counter);
}

export function openTicketsOf(db: Db, tx: Queryable, workspaceId: string, userIds: string[]): Map<string, number> {
  const counter = counters.get(db);
  return counter && userIds.length ? counter(tx, workspaceId, userIds) : new Map();
}
