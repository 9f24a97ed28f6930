import { z } from "zod";
import type { Tx } from "../db/database";
import type { Deps } from "../deps";
import { defineJob, type JobContext } from "../jobs/define";
import { enqueue } from "../jobs/enqueue";
import type { TicketRow } from "./tickets.table";
import { wakeSnoozedTicket } from "./tickets.snooze";

/**
 * Wakes a snoozed ticket when its time comes: snooze cleared, status back to open. Idempotent:
 * a ticket snoozed again for later (or already woken) is left alone; its newer job wakes it.
 */
export const wakeSnoozedJob = defineJob({
  name: "tickets.wake_snoozed",
  schema: z.object({ ticket_id: z.string() }),
  async handler(payload, { deps }: JobContext<Deps>) {
    await wakeSnoozedTicket(payload.ticket_id, deps);
  },
});

/** Schedules the wake-up of a ticket a patch snoozed, in the patch's transaction. */
export async function scheduleWake(
  tx: Tx,
  ticket: Pick<TicketRow, "id" | "workspaceId">,
  until: string,
): Promise<void> {
  await enqueue(
    tx,
    wakeSnoozedJob,
    { ticket_id: ticket.id },
    { runAt: new Date(until), workspaceId: ticket.workspaceId },
  );
}
