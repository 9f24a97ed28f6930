import { systemContext } from "../auth/context";
import type { Tx } from "../db/database";
import { transact } from "../db/tx";
import type { Deps } from "../deps";
import type { Ports } from "../lib/ports";
import { dueSnoozedTicket } from "./tickets.repo";
import type { TicketRow } from "./tickets.table";
import { emitTicketUpdated } from "./tickets.timeline";
import { applyTicketPatch, type PatchOutcome } from "./tickets.write";

/**
 * A snoozed ticket whose time has come: the snooze ends and the ticket is open again (an activity
 * `status_changed` with reason `snooze_ended` when it was not open). Through applyTicketPatch, so
 * the status rules (solved_at) are the same as for any other change. Undefined when there is
 * nothing to wake (snoozed again for later, woken already, deleted or merged away).
 */
async function wakeDueTicket(tx: Tx, ticketId: string, now: string, ports: Ports): Promise<PatchOutcome | undefined> {
  const current = await dueSnoozedTicket(tx, ticketId, now);
  if (!current) return undefined;
  return await applyTicketPatch(
    tx,
    systemContext(current.workspaceId),
    current,
    { snoozed_until: null, status: "open" },
    now,
    {
      enforceRequired: false,
      statusReason: "snooze_ended",
    },
    ports,
  );
}

/** Wakes a snoozed ticket whose time has come (the snooze job); nothing when it is not due. */
export async function wakeSnoozedTicket(ticketId: string, deps: Deps): Promise<TicketRow | undefined> {
  const now = deps.clock.now().toISOString();
  return await transact(deps.db, async (tx) => {
    const outcome = await wakeDueTicket(tx, ticketId, now, deps.ports);
    if (!outcome) return undefined;
    await emitTicketUpdated(tx, outcome.row, outcome.changes, outcome.assigneeChanged);
    return outcome.row;
  });
}
