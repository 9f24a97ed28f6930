import { z } from "zod";
import { lt } from "drizzle-orm";
import type { Config } from "../config/config";
import type { Db } from "../db/database";
import { defineJob, type JobContext } from "../jobs/define";
import type { Clock } from "../lib/clock";
import { events } from "./events.table";

/**
 * Deletes events older than EVENT_RETENTION (replay serves only the retained window). Seqs come
 * from `event_seqs` and consumer cursors are seqs, so pruning any event, the newest included,
 * changes neither the next seq nor where a consumer stands.
 */
export const pruneEventsJob = defineJob({
  schema: z.object({}),
  name: "events.prune",
  schedule: "17 * * * *",
  concurrency: 1,
  async handler(_payload, { deps }: JobContext<{ db: Db; clock: Clock; config: Pick<Config, "eventRetentionMs"> }>) {
    const cutoff = new Date(deps.clock.now().getTime() - deps.config.eventRetentionMs).toISOString();
    await deps.db.delete(events).where(lt(events.occurredAt, cutoff));
  },
});
