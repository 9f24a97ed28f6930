import type { Db, Queryable } from "../db/database";
import { deskState } from "../db/desk-state";

/** Counts each member's open tickets: user id → count (missing = 0). */
export type OpenTicketCounter = (db: Queryable, workspaceId: string, userIds: string[]) => Map<string, number>;

/** The desk's counter, on its runtime; null until the tickets feature supplies it. */
const counterOf = deskState<{ count: OpenTicketCounter | null }>("members.open-tickets", () => ({ count: null }));

/**
 * The tickets feature owns the `tickets` table, so it supplies the count: it calls this from
 * `registerFeatureHooks`. Until it does, every member shows `open_tickets: 0` (members never probe
 * for another feature's table at run time).
 */
export function registerOpenTicketCounter(db: Db, counter: OpenTicketCounter): void {
  counterOf(db).count = counter;
}

export function openTicketsOf(db: Db, tx: Queryable, workspaceId: string, userIds: string[]): Map<string, number> {
  const counter = counterOf(db).count;
  return counter && userIds.length ? counter(tx, workspaceId, userIds) : new Map();
}
