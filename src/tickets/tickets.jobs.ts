import { and, eq, isNull, lte } from "drizzle-orm";
import { z } from "zod";
import { systemContext } from "../auth/context";
import { withTx } from "../db/tx";
import type { Deps } from "../deps";
import { defineJob, type JobContext } from "../jobs/define";
import { tickets } from "./tickets.table";
import { emitTicketUpdated, recordActivity } from "./tickets.timeline";

/**
 * Wakes a snoozed ticket when its time comes: snooze cleared, status back to open. Idempotent:
 * a ticket snoozed again for later (or already woken) is left alone; its newer job wakes it.
 */
export const wakeSnoozedJob = defineJob({
  name: "tickets.wake_snoozed",
  schema: z.object({ ticket_id: z.string() }),
  handler(payload, { deps }: JobContext<Deps>) {
    const now = deps.clock.now().toISOString();
    withTx(deps.db, (tx) => {
      const current = tx
        .select()
        .from(tickets)
        .where(
          and(
            eq(tickets.id, payload.ticket_id),
            isNull(tickets.deletedAt),
            isNull(tickets.mergedIntoId),
            lte(tickets.snoozedUntil, now),
          ),
        )
        .get();
      if (!current) return;
      const reopen = current.status !== "open";
      const row = tx
        .update(tickets)
        .set({ snoozedUntil: null, status: "open", solvedAt: reopen ? null : current.solvedAt, updatedAt: now })
        .where(eq(tickets.id, current.id))
        .returning()
        .get()!;
      if (reopen)
        recordActivity(
          tx,
          systemContext(row.workspaceId),
          row,
          "status_changed",
          { from: current.status, to: "open", reason: "snooze_ended" },
          now,
        );
      emitTicketUpdated(tx, row, reopen ? ["snoozed_until", "status"] : ["snoozed_until"]);
    });
  },
});
