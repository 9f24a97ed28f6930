import { z } from "zod";
import type { Db } from "./database";
import { optimizeDatabase } from "./database";
import { defineJob, type JobContext } from "../jobs/define";

/** Refreshes planner statistics hourly (see optimizeDatabase). */
export const optimizeDatabaseJob = defineJob({
  name: "db.optimize",
  schema: z.object({}),
  schedule: "41 * * * *",
  concurrency: 1,
  handler(_payload, { deps }: JobContext<{ db: Db }>) {
    optimizeDatabase(deps.db);
  },
});
