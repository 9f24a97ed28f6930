import { z } from "zod";
import type { Deps } from "../deps";
import { defineJob, Requeue, type JobContext } from "../jobs/define";
import { failImport, runImportSteps } from "./imports.engine";

/** A run works for this long, then yields its slot to other jobs and continues from its committed cursor. */
const SLICE_MS = 20_000;
const MAX_ATTEMPTS = 20;

/**
 * Runs an import a slice at a time. Its progress is the import row (phase, cursors, counts)
 * committed after every page, so a restart or a crash resumes at the last committed page.
 */
export const importRunJob = defineJob({
  name: "imports.run",
  schema: z.object({ import_id: z.string() }),
  concurrency: 2,
  // A page may wait out a vendor's Retry-After; the import's own lease keeps two runners apart.
  leaseMs: 15 * 60_000,
  retry: { maxAttempts: MAX_ATTEMPTS },
  async handler({ import_id }, { deps, signal, attempt, logger }: JobContext<Deps>) {
    let outcome: Awaited<ReturnType<typeof runImportSteps>>;
    try {
      outcome = await runImportSteps(deps, import_id, { sliceMs: SLICE_MS, signal, holder: "job" });
    } catch (error) {
      if (attempt < MAX_ATTEMPTS || signal.aborted) throw error;
      logger.error({ err: error, import_id }, "import gave up");
      await failImport(
        deps,
        import_id,
        "The import stopped on an unexpected error; run it again to go on from its last page.",
      );
      return;
    }
    if (outcome.kind === "more") throw new Requeue(0);
    if (outcome.kind === "busy") throw new Requeue(outcome.retryInMs);
  },
});
