import { z } from "zod";
import type { Deps } from "../deps";
import { defineJob, type JobContext } from "../jobs/define";
import { wakeSnoozedTicket } from "./tickets.service";

/**
 * Wakes a snoozed ticket when its time comes: snooze cleared, status back to open. Idempotent:
 * a ticket snoozed again for later (or already woken) is left alone; its newer job wakes it.
 */
export const wakeSnoozedJob = defineJob({
  name: "tickets.wake_snoozed",
  schema: z.object({ ticket_id: z.string() }),
  handler(payload, { deps }: JobContext<Deps>) {
    wakeSnoozedTicket(payload.ticket_id, deps);
  },
});
