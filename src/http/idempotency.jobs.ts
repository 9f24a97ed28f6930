import { lt } from "drizzle-orm";
import type { Deps } from "../deps";
import { defineJob } from "../jobs/define";
import { IDEMPOTENCY_TTL_MS } from "./idempotency";
import { idempotencyKeys } from "./idempotency.table";

export const pruneIdempotencyKeysJob = (deps: Deps) =>
  defineJob({
    name: "idempotency.prune",
    schedule: "7 * * * *",
    concurrency: 1,
    handler() {
      const cutoff = new Date(deps.clock.now().getTime() - IDEMPOTENCY_TTL_MS).toISOString();
      deps.db.delete(idempotencyKeys).where(lt(idempotencyKeys.createdAt, cutoff)).run();
    },
  });
