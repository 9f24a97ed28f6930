import { jsonList, preparedFor } from "../db/prepared";
import type { OpenTicketCounter } from "../members/members.public";

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
export const countMemberOpenTickets: OpenTicketCounter = async (tx, workspaceId, userIds) => {
  const rows = openTicketCounts(tx).all(workspaceId, jsonList(userIds));
  return new Map(rows.map((r) => [r.assignee_id, r.n]));
};
