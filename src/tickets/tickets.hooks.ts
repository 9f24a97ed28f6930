import { and, eq, inArray, isNull } from "drizzle-orm";
import { systemContext } from "../auth/context";
import type { Deps } from "../deps";
import { onEvent } from "../events/bus";
import { memberRemoved } from "../members/members.public";
import { tickets } from "./tickets.table";
import { emitTicketUpdated } from "./tickets.timeline";
import { applyTicketPatch } from "./tickets.write";

const UNSOLVED = ["open", "pending", "on_hold"] as const;

/**
 * A member who leaves a workspace leaves their unsolved tickets unassigned, in the same
 * transaction, each with its `ticket.updated` event, so none waits on someone who can no longer
 * answer. Solved and closed tickets keep their assignee as history.
 */
export function registerUnassignOnMemberRemoval(deps: Pick<Deps, "db" | "ports">): () => void {
  return onEvent(deps.db, [memberRemoved], async (tx, event) => {
    const userId = event.data.user_id;
    const assigned = await tx
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
      );
    const ctx = systemContext(event.workspace_id, `member-removed:${userId}`);
    for (const ticket of assigned) {
      const outcome = await applyTicketPatch(
        tx,
        ctx,
        ticket,
        { assignee_id: null },
        event.occurred_at,
        { enforceRequired: false },
        deps.ports,
      );
      if (outcome.changes.length > 0)
        await emitTicketUpdated(tx, outcome.row, outcome.changes, outcome.assigneeChanged);
    }
  });
}
