import type { Deps } from "../deps";
import { defineJob } from "../jobs/define";
import { removeOrphanAttachments } from "./attachments.service";

/** Uploads no message referenced within a day are removed (row and file), hourly. */
export const removeOrphanAttachmentsJob = (deps: Deps) =>
  defineJob({
    name: "attachments.remove_orphans",
    schedule: "41 * * * *",
    concurrency: 1,
    handler() {
      removeOrphanAttachments(deps);
    },
  });
