import { and, eq, inArray, isNull } from "drizzle-orm";
import { systemContext } from "../auth/context";
import type { Deps } from "../deps";
import { preparedFor, jsonList } from "../db/prepared";
import { onEventInTransaction } from "../events/bus";
import { registerOpenTicketCounter } from "../members/members.public";
import { tickets } from "./tickets.table";
import { emitTicketUpdated } from "./tickets.timeline";
import { applyTicketPatch } from "./tickets.write";

const UNSOLVED = ["open", "pending", "on_hold"] as const;

/**
 * A member who leaves a workspace leaves their unsolved tickets unassigned, in the same
 * transaction, each with its `ticket.updated` event, so none waits on someone who can no longer
 * answer. Solved and closed tickets keep their assignee as history.
 */
export function registerUnassignOnMemberRemoval(deps: Pick<Deps, "db">): () => void {
  return onEventInTransaction(deps.db, (tx, event) => {
    if (event.type !== "member.removed") return;
    const userId = (event.data as { user_id?: unknown }).user_id;
    if (typeof userId !== "string") return;
    const assigned = tx
      .select()
      .from(tickets)
      .where(
        and(
          eq(tickets.workspaceId, event.workspace_id),
          eq(tickets.assigneeId, userId),
          inArray(tickets.status, [...UNSOLVED]),
          isNull(tickets.deletedAt),
          isNull(tickets.mergedIntoId),
        ),
      )
      .all();
    const ctx = systemContext(event.workspace_id, `member-removed:${userId}`);
    for (const ticket of assigned) {
      const outcome = applyTicketPatch(tx, ctx, ticket, { assignee_id: null }, event.occurred_at, {
        enforceRequired: false,
      });
      if (outcome.changes.length > 0) emitTicketUpdated(tx, outcome.row, outcome.changes, outcome.assigneeChanged);
    }
  });
}

const openTicketCounts = preparedFor((sqlite) =>
  sqlite.query<{ assignee_id: string; n: number }, [string, string]>(
    "SELECT assignee_id, count(*) AS n FROM tickets WHERE workspace_id = ? AND assignee_id IN (SELECT value FROM json_each(?)) AND status IN ('open', 'pending', 'on_hold') AND deleted_at IS NULL AND merged_into_id IS NULL GROUP BY assignee_id",
  ),
);

/**
 * A member's `open_tickets` is the number of unsolved tickets (open, pending, on hold) assigned to
 * them: the same set that is unassigned when they leave, and what an assignment cap weighs. The
 * tickets feature owns the table, so it supplies the count to members.
 */
export function registerMemberOpenTickets(deps: Pick<Deps, "db">): void {
  registerOpenTicketCounter(deps.db, (tx, workspaceId, userIds) => {
    const rows = openTicketCounts(tx).all(workspaceId, jsonList(userIds));
    return new Map(rows.map((r) => [r.assignee_id, r.n]));
  });
}
