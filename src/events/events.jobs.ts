import { z } from "zod";
import { lt } from "drizzle-orm";
import type { Deps } from "../deps";
import { defineJob, type JobContext } from "../jobs/define";
import { events } from "./events.table";

/** Deletes events older than EVENT_RETENTION (replay serves only the retained window). */
export const pruneEventsJob = defineJob({
  schema: z.object({}),
  name: "events.prune",
  schedule: "17 * * * *",
  concurrency: 1,
  handler(_payload, { deps }: JobContext<Pick<Deps, "db" | "clock" | "config">>) {
    const cutoff = new Date(deps.clock.now().getTime() - deps.config.eventRetentionMs).toISOString();
    deps.db.delete(events).where(lt(events.occurredAt, cutoff)).run();
  },
});
