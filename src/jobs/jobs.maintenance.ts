import { z } from "zod";
import { and, inArray, lt } from "drizzle-orm";
import type { Db } from "../db/database";
import { optimizeDatabase } from "../db/engine";
import type { Clock } from "../lib/clock";
import { defineJob, type JobContext } from "./define";
import { jobs } from "./jobs.table";

const KEEP_FINISHED_MS = 7 * 24 * 3600 * 1000;

/** Finished jobs are kept a week for inspection, then removed. */
export const pruneJobsJob = defineJob({
  name: "jobs.prune",
  schema: z.object({}),
  schedule: "37 3 * * *",
  concurrency: 1,
  async handler(_payload, { deps }: JobContext<{ db: Db; clock: Clock }>) {
    const cutoff = new Date(deps.clock.now().getTime() - KEEP_FINISHED_MS).toISOString();
    await deps.db.delete(jobs).where(and(inArray(jobs.state, ["done", "failed"]), lt(jobs.updatedAt, cutoff)));
  },
});

/**
 * Refreshes planner statistics hourly (see optimizeDatabase). Declared here rather than in db/,
 * so db never imports the job machinery (jobs already builds on db).
 */
export const optimizeDatabaseJob = defineJob({
  name: "db.optimize",
  schema: z.object({}),
  schedule: "41 * * * *",
  concurrency: 1,
  handler(_payload, { deps }: JobContext<{ db: Db }>) {
    optimizeDatabase(deps.db);
  },
});
