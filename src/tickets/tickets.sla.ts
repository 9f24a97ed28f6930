import { and, asc, eq, gt, isNull, notInArray } from "drizzle-orm";
import type { Queryable } from "../db/database";
import { liveTicketRow } from "./tickets.statements";
import { tickets, type TicketRow } from "./tickets.table";

/** What the SLA feature reads of a ticket to compute its deadlines. */
export type SlaTicketInput = Pick<
  TicketRow,
  "id" | "workspaceId" | "createdAt" | "priority" | "status" | "firstRespondedAt" | "sla"
>;

const slaColumns = {
  id: tickets.id,
  workspaceId: tickets.workspaceId,
  createdAt: tickets.createdAt,
  priority: tickets.priority,
  status: tickets.status,
  firstRespondedAt: tickets.firstRespondedAt,
  sla: tickets.sla,
};

/**
 * Live tickets of a workspace still being worked (neither solved nor closed), by id after `afterId`:
 * the batches an SLA policy change recomputes.
 */
export async function unsolvedTicketsAfter(
  db: Queryable,
  workspaceId: string,
  afterId: string,
  limit: number,
): Promise<SlaTicketInput[]> {
  return await db
    .select(slaColumns)
    .from(tickets)
    .where(
      and(
        eq(tickets.workspaceId, workspaceId),
        gt(tickets.id, afterId),
        isNull(tickets.deletedAt),
        isNull(tickets.mergedIntoId),
        notInArray(tickets.status, ["solved", "closed"]),
      ),
    )
    .orderBy(asc(tickets.id))
    .limit(limit);
}

/** A live ticket (neither deleted nor merged away) of the workspace, as the SLA feature reads it. */
export const liveSlaTicket = async (
  db: Queryable,
  workspaceId: string,
  id: string,
): Promise<SlaTicketInput | undefined> => await liveTicketRow(db, workspaceId, id);
