import type { Queryable } from "../db/database";
import {
  ticketTimeStatements,
  type PagedTicketTimes,
  type TicketTimeColumn,
  type TicketTimes,
  type TimeCursor,
} from "./ticket-times.statements";
import type { TicketStatus } from "./tickets.table";

export type { TicketTimeColumn, TicketTimes, TimeCursor };

/**
 * A page of the workspace's live tickets in `status` whose `column` time is in [from, to), newest
 * first, after `cursor`: an index range, so its cost follows the page, not the workspace.
 */
export async function ticketTimesInRange(
  db: Queryable,
  workspaceId: string,
  input: {
    status: TicketStatus;
    column: TicketTimeColumn;
    from: string;
    to: string;
    cursor: TimeCursor | null;
    limit: number;
  },
): Promise<PagedTicketTimes[]> {
  // Without a cursor the walk starts at `to` (exclusive): no ticket id sorts below ''.
  const cursor = input.cursor ?? { at: input.to, id: "" };
  return await ticketTimeStatements(db).inRange(workspaceId, { ...input, cursor });
}

/** A page of the workspace's live tickets in `status` whose SLA was breached, by id descending, after `cursorId`. */
export async function breachedTicketTimes(
  db: Queryable,
  workspaceId: string,
  input: { status: TicketStatus; cursorId: string | null; limit: number },
): Promise<PagedTicketTimes[]> {
  return await ticketTimeStatements(db).breached(workspaceId, {
    status: input.status,
    beforeId: input.cursorId ?? "\uffff",
    limit: input.limit,
  });
}
