import type { Db } from "../db/database";
import { optimizeDatabase } from "../db/database";
import { defineJob } from "./define";

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
