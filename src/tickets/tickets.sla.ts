import { and, asc, eq, gt, isNull, notInArray } from "drizzle-orm";
import { systemContext } from "../auth/context";
import type { Queryable, Tx } from "../db/database";
import { derivedTicketColumns, liveTicketRow, writeTicketSla } from "./tickets.statements";
import { recordActivity, emitTicketUpdated } from "./tickets.timeline";
import { tickets, type TicketRow, type TicketSla } from "./tickets.table";

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
export function unsolvedTicketsAfter(
  db: Queryable,
  workspaceId: string,
  afterId: string,
  limit: number,
): SlaTicketInput[] {
  return db
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
    .limit(limit)
    .all();
}

/** A live ticket (neither deleted nor merged away) of the workspace, as the SLA feature reads it. */
export const liveSlaTicket = (db: Queryable, workspaceId: string, id: string): SlaTicketInput | undefined =>
  liveTicketRow(db, workspaceId, id);

const sameSla = (a: TicketSla | null, b: TicketSla | null): boolean =>
  a === b ||
  (a !== null &&
    b !== null &&
    a.policy_id === b.policy_id &&
    a.first_response_due_at === b.first_response_due_at &&
    a.resolution_due_at === b.resolution_due_at &&
    a.breached === b.breached);

/**
 * Stores a ticket's SLA state (the SLA feature computes it) in the caller's transaction, with
 * `ticket.updated { changes: ["sla"] }`; a breach also records an `sla_breached { kind }` activity by
 * the system. Nothing is written when the state is unchanged and no breach is recorded. Returns
 * the ticket as stored, or undefined when it is not live.
 */
export function setTicketSla(
  tx: Tx,
  input: { workspaceId: string; ticketId: string; sla: TicketSla | null; breach?: { kind: string } },
  now: string,
): TicketRow | undefined {
  const current = liveTicketRow(tx, input.workspaceId, input.ticketId);
  if (!current) return undefined;
  if (sameSla(current.sla, input.sla) && !input.breach) return current;
  writeTicketSla(tx, current.id, input.sla, now);
  const row: TicketRow = {
    ...current,
    sla: input.sla,
    updatedAt: now,
    ...derivedTicketColumns({ ...current, sla: input.sla }),
  };
  if (input.breach)
    recordActivity(tx, systemContext(row.workspaceId), row, "sla_breached", { kind: input.breach.kind }, now, {
      type: "system",
      userId: null,
    });
  emitTicketUpdated(tx, row, ["sla"]);
  return row;
}
