import { eq } from "drizzle-orm";
import { systemContext } from "../auth/context";
import type { Tx } from "../db/database";
import { derivedTicketColumns, liveTicketRow, writeTicketSla } from "./tickets.statements";
import { tickets, type TicketCsat, type TicketRow, type TicketSla } from "./tickets.table";
import { emitTicketUpdated, recordActivity } from "./tickets.timeline";

/**
 * Columns of the ticket row that hold another feature's data: CSAT's latest rating and the SLA
 * clock's deadlines. The owners compute them; the ticket stores them (lists sort and filter on
 * them) and says so on its timeline and in `ticket.updated`.
 */
export type TicketFieldChange = { csat: TicketCsat } | { sla: TicketSla | null };

/** The timeline entry a change writes (a rating received from the contact, a breach seen by the system). */
type TicketFieldActivity = { type: string; data: Record<string, unknown>; actor: "contact" | "system" };

const sameSla = (a: TicketSla | null, b: TicketSla | null): boolean =>
  a === b ||
  (a !== null &&
    b !== null &&
    a.policy_id === b.policy_id &&
    a.first_response_due_at === b.first_response_due_at &&
    a.resolution_due_at === b.resolution_due_at &&
    a.breached === b.breached);

const unchanged = (current: TicketRow, change: TicketFieldChange): boolean =>
  "sla" in change
    ? sameSla(current.sla, change.sla)
    : current.csat?.score === change.csat.score && current.csat?.comment === change.csat.comment;

async function writeFieldChange(tx: Tx, ticketId: string, change: TicketFieldChange, now: string): Promise<void> {
  // The SLA write runs on every tracked change, so it is a prepared statement.
  if ("sla" in change) await writeTicketSla(tx, ticketId, change.sla, now);
  else await tx.update(tickets).set({ csat: change.csat, updatedAt: now }).where(eq(tickets.id, ticketId));
}

/**
 * Stores another feature's data on a live ticket in the caller's transaction: the activity when
 * one is given, and `ticket.updated` naming the column. A change with no activity that moves
 * nothing writes nothing. Answers the ticket as stored, or undefined when it is not live
 * (deleted or merged away).
 */
export async function patchTicketFields(
  tx: Tx,
  workspaceId: string,
  ticketId: string,
  change: TicketFieldChange,
  now: string,
  activity?: TicketFieldActivity,
): Promise<TicketRow | undefined> {
  const current = await liveTicketRow(tx, workspaceId, ticketId);
  if (!current) return undefined;
  if (!activity && unchanged(current, change)) return current;
  await writeFieldChange(tx, current.id, change, now);
  const next = { ...current, ...change };
  const row: TicketRow = { ...next, updatedAt: now, ...derivedTicketColumns(next) };
  if (activity)
    await recordActivity(tx, systemContext(workspaceId), row, activity.type, activity.data, now, {
      type: activity.actor,
      userId: null,
    });
  await emitTicketUpdated(tx, row, ["sla" in change ? "sla" : "csat"]);
  return row;
}
