import { and, asc, eq, isNull, lt, sql } from "drizzle-orm";
import { systemContext } from "../auth/context";
import type { Queryable } from "../db/database";
import { transact } from "../db/tx";
import type { Deps } from "../deps";
import { ticketOfWorkspace } from "./tickets.repo";
import { tickets } from "./tickets.table";
import { emitTicketUpdated } from "./tickets.timeline";
import { applyTicketPatch } from "./tickets.write";

/**
 * Auto-close of solved tickets (a scheduled job): a change from outside an agent's request that
 * goes through the same activity and event path as every other change.
 */

/**
 * Ids of the workspace's live solved tickets solved before `cutoff`, oldest first (the partial
 * index `tickets_ws_autoclose_idx` holds exactly these rows, so the scan never reads closed ones).
 */
export async function solvedTicketsBefore(
  db: Queryable,
  workspaceId: string,
  cutoff: string,
  limit: number,
): Promise<string[]> {
  return (await solvedTicketsBeforeQuery(db, workspaceId, cutoff, limit)).map((r) => r.id);
}

/** The seek of solvedTicketsBefore, unexecuted (its test reads the query plan). */
export function solvedTicketsBeforeQuery(db: Queryable, workspaceId: string, cutoff: string, limit: number) {
  return db
    .select({ id: tickets.id })
    .from(tickets)
    .where(
      and(
        eq(tickets.workspaceId, workspaceId),
        // A literal, not a parameter: the planner must see it matches the partial index's WHERE.
        sql`${tickets.status} = 'solved'`,
        isNull(tickets.deletedAt),
        isNull(tickets.mergedIntoId),
        lt(tickets.solvedAt, cutoff),
      ),
    )
    .orderBy(asc(tickets.solvedAt))
    .limit(limit);
}

/**
 * Closes one solved ticket whose time has come (auto-close): `status_changed` with reason
 * `auto_close`, attributed to the system, and `ticket.updated`. Required fields do not block it
 * (SPEC.md, Ticket status). Nothing when it is no longer solved or solved after `cutoff`.
 */
export async function autoCloseTicket(
  workspaceId: string,
  ticketId: string,
  cutoff: string,
  deps: Deps,
): Promise<boolean> {
  const now = deps.clock.now().toISOString();
  return await transact(deps.db, async (tx) => {
    const current = await ticketOfWorkspace(tx, workspaceId, ticketId);
    if (
      !current ||
      current.deletedAt ||
      current.mergedIntoId ||
      current.status !== "solved" ||
      !current.solvedAt ||
      current.solvedAt >= cutoff
    )
      return false;
    const outcome = await applyTicketPatch(
      tx,
      systemContext(workspaceId),
      current,
      { status: "closed" },
      now,
      { enforceRequired: false, statusReason: "auto_close" },
      deps.ports,
    );
    if (outcome.changes.length > 0) await emitTicketUpdated(tx, outcome.row, outcome.changes, outcome.assigneeChanged);
    return true;
  });
}
