import { z } from "zod";
import type { Deps } from "../deps";
import { defineJob, type JobContext } from "../jobs/define";
import { removeOrphanAttachments } from "./attachments.service";

/** Uploads no message referenced within a day are removed (row and file), hourly. */
export const removeOrphanAttachmentsJob = defineJob({
  schema: z.object({}),
  name: "attachments.remove_orphans",
  schedule: "41 * * * *",
  concurrency: 1,
  async handler(_payload, { deps }: JobContext<Deps>) {
    await removeOrphanAttachments(deps);
  },
});
