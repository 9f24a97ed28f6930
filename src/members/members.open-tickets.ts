import type { Queryable } from "../db/database";
import { definePort, type Ports } from "../lib/ports";

/** Counts each member's open tickets: user id → count (missing = 0). */
export type OpenTicketCounter = (
  db: Queryable,
  workspaceId: string,
  userIds: string[],
) => Map<string, number> | Promise<Map<string, number>>;

/**
 * The tickets feature owns the `tickets` table, so it supplies the count (members never probe for
 * another feature's table).
 */
export const openTicketCounter = definePort<OpenTicketCounter>("members.openTicketCounter");

export async function openTicketsOf(
  ports: Ports,
  tx: Queryable,
  workspaceId: string,
  userIds: string[],
): Promise<Map<string, number>> {
  return userIds.length ? await ports.get(openTicketCounter)(tx, workspaceId, userIds) : new Map();
}
