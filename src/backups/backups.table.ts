import { index, integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { id } from "../db/columns";

/** One row per backup Desk took itself (scheduled or asked for on the System page); CLI runs are the operator's. */
export const backupRuns = sqliteTable(
  "backup_runs",
  {
    id: id(),
    trigger: text("trigger", { enum: ["schedule", "manual"] }).notNull(),
    status: text("status", { enum: ["running", "succeeded", "failed"] }).notNull(),
    file: text("file").notNull(),
    sizeBytes: integer("size_bytes"),
    fileCount: integer("file_count"),
    error: text("error"),
    startedAt: text("started_at").notNull(),
    finishedAt: text("finished_at"),
    /** Set when retention deleted the archive. */
    prunedAt: text("pruned_at"),
  },
  (t) => [index("backup_runs_started_idx").on(t.startedAt)],
);
