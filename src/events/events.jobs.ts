import { z } from "zod";
import { and, lt, sql } from "drizzle-orm";
import type { Config } from "../config/config";
import type { Db } from "../db/database";
import { defineJob, type JobContext } from "../jobs/define";
import type { Clock } from "../lib/clock";
import { events } from "./events.table";

/**
 * Deletes events older than EVENT_RETENTION (replay serves only the retained window). The newest
 * event always stays: SQLite gives a new row max(rowid) + 1, and consumer cursors are rowids, so
 * emptying the table would hand new events rowids that cursors have already passed.
 */
export const pruneEventsJob = defineJob({
  schema: z.object({}),
  name: "events.prune",
  schedule: "17 * * * *",
  concurrency: 1,
  handler(_payload, { deps }: JobContext<{ db: Db; clock: Clock; config: Pick<Config, "eventRetentionMs"> }>) {
    const cutoff = new Date(deps.clock.now().getTime() - deps.config.eventRetentionMs).toISOString();
    deps.db
      .delete(events)
      .where(and(lt(events.occurredAt, cutoff), sql`rowid < (SELECT max(rowid) FROM events)`))
      .run();
  },
});
