import type { Db } from "./database";
import { optimizeDatabase } from "./database";
import { defineJob } from "../jobs/define";

/** Refreshes planner statistics hourly (see optimizeDatabase). */
export const optimizeDatabaseJob = (deps: { db: Db }) =>
  defineJob({
    name: "db.optimize",
    schedule: "41 * * * *",
    concurrency: 1,
    handler() {
      optimizeDatabase(deps.db);
    },
  });
