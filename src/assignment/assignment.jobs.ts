import { eq, gt } from "drizzle-orm";
import { z } from "zod";
import { transact } from "../db/tx";
import type { Deps } from "../deps";
import { defineJob, type JobContext } from "../jobs/define";
import { membersLastSeenBetween, publishMemberUpdated } from "../members/members.public";
import { assignmentSettings } from "./assignment.table";

/**
 * Presence is computed when read; this job tells everyone when auto-away turns someone away: each
 * minute, per workspace with auto-away on, `member.updated` for the online members whose last
 * heartbeat the cutoff passed since the previous run (the cutoff reached is stored, so a late or
 * repeated run neither skips nor repeats anyone).
 */
export const autoAwayJob = defineJob({
  name: "assignment.auto-away",
  schema: z.object({}).passthrough(),
  schedule: "* * * * *",
  async handler(_payload, run: JobContext<Deps>) {
    const { deps } = run;
    const now = deps.clock.now().getTime();
    await transact(deps.db, async (tx) => {
      // Read in the change that stores the new cutoffs: a run beside this one then reads them, not the old ones.
      const rows = await tx.select().from(assignmentSettings).where(gt(assignmentSettings.autoAwayMinutes, 0));
      for (const row of rows) {
        const cutoff = new Date(now - row.autoAwayMinutes * 60_000).toISOString();
        const from = row.awayAnnouncedUntil ?? new Date(now - (row.autoAwayMinutes + 1) * 60_000).toISOString();
        if (from >= cutoff) continue;
        for (const userId of await membersLastSeenBetween(tx, row.workspaceId, from, cutoff))
          await publishMemberUpdated(deps, tx, row.workspaceId, userId);
        await tx
          .update(assignmentSettings)
          .set({ awayAnnouncedUntil: cutoff })
          .where(eq(assignmentSettings.workspaceId, row.workspaceId));
      }
    });
  },
});
