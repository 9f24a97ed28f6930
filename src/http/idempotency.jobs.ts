import { z } from "zod";
import { lt } from "drizzle-orm";
import type { Db } from "../db/database";
import { defineJob, type JobContext } from "../jobs/define";
import type { Clock } from "../lib/clock";
import { IDEMPOTENCY_TTL_MS } from "./idempotency";
import { idempotencyKeys } from "./idempotency.table";

export const pruneIdempotencyKeysJob = defineJob({
  schema: z.object({}),
  name: "idempotency.prune",
  schedule: "7 * * * *",
  concurrency: 1,
  async handler(_payload, { deps }: JobContext<{ db: Db; clock: Clock }>) {
    const cutoff = new Date(deps.clock.now().getTime() - IDEMPOTENCY_TTL_MS).toISOString();
    await deps.db.delete(idempotencyKeys).where(lt(idempotencyKeys.createdAt, cutoff));
  },
});
