import { lt } from "drizzle-orm";
import { z } from "zod";
import type { Deps } from "../deps";
import { defineJob, type JobContext } from "../jobs/define";
import { automationRuns } from "./automations.table";

/**
 * How long a run's record is kept. A run record also stops an event from running an automation
 * twice when its cursor moves back, which only events still stored can do (events are kept for
 * EVENT_RETENTION, 7 days by default): records outlive them comfortably.
 */
export const RUN_RETENTION_DAYS = 30;

/** Deletes run records older than RUN_RETENTION_DAYS (daily). */
export const pruneAutomationRunsJob = defineJob({
  schema: z.object({}),
  name: "automations.prune-runs",
  schedule: "41 3 * * *",
  concurrency: 1,
  async handler(_payload, { deps }: JobContext<Pick<Deps, "db" | "clock">>) {
    const cutoff = new Date(deps.clock.now().getTime() - RUN_RETENTION_DAYS * 86_400_000).toISOString();
    await deps.db.delete(automationRuns).where(lt(automationRuns.createdAt, cutoff));
  },
});
