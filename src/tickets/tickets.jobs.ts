import { z } from "zod";
import type { Deps } from "../deps";
import { defineJob } from "../jobs/define";
import { wakeSnoozedTicket } from "./tickets.service";
import { WAKE_SNOOZED_JOB } from "./tickets.write";

/**
 * Wakes a snoozed ticket when its time comes: snooze cleared, status back to open. Idempotent:
 * a ticket snoozed again for later (or already woken) is left alone; its newer job wakes it.
 */
export const wakeSnoozedJob = (deps: Deps) =>
  defineJob({
    name: WAKE_SNOOZED_JOB,
    schema: z.object({ ticket_id: z.string() }),
    handler(payload) {
      wakeSnoozedTicket(payload.ticket_id, deps);
    },
  });
