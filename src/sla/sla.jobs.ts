import { z } from "zod";
import type { Deps } from "../deps";
import { transact } from "../db/tx";
import { defineJob, type JobContext } from "../jobs/define";
import { enqueue } from "../jobs/enqueue";
import { unsolvedTicketsAfter } from "../tickets/tickets.public";
import { breachPass, policiesOf, trackTicket } from "./sla.track";

/** Unsolved tickets recomputed per run of the recompute job; the next batch is another run. */
const RECOMPUTE_BATCH = 500;

/**
 * Every minute: records the SLA deadlines passed since the last run. Reads only the clocks whose
 * next deadline has passed (a partial index on `sla_clocks.next_due_at`), whatever the number of
 * tickets. Idempotent: a recorded breach is no longer pending, so a repeated run records nothing.
 */
export const slaBreachJob = defineJob({
  name: "sla.breaches",
  schema: z.object({}),
  schedule: "* * * * *",
  concurrency: 1,
  async handler(_payload, { deps }: JobContext<Deps>) {
    await breachPass(deps);
  },
});

/**
 * After a policy or the business hours change: the SLA clocks of the workspace's unsolved tickets
 * are computed again, a batch per run, from `after_id` on (ticket ids in order). Idempotent.
 */
export const recomputeSlaJob = defineJob({
  name: "sla.recompute",
  schema: z.object({ workspace_id: z.string(), after_id: z.string() }),
  async handler(payload, { deps }: JobContext<Deps>) {
    const at = deps.clock.now().toISOString();
    await transact(deps.db, async (tx) => {
      const batch = await unsolvedTicketsAfter(tx, payload.workspace_id, payload.after_id, RECOMPUTE_BATCH);
      const policies = await policiesOf(tx, payload.workspace_id);
      for (const ticket of batch) await trackTicket(tx, ticket, at, policies);
      if (batch.length === RECOMPUTE_BATCH)
        await enqueue(
          tx,
          recomputeSlaJob,
          { workspace_id: payload.workspace_id, after_id: batch.at(-1)!.id },
          { workspaceId: payload.workspace_id },
        );
    });
  },
});
