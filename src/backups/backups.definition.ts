import { bigint, id, index, integer, table, text } from "../db/schema-kit";

// Each table declared once with the schema kit (src/db/schema-kit.ts): backups.table.ts builds it for
// SQLite (queries, types, migrations), backups.table.pg.ts for PostgreSQL.

/** One row per backup Desk took itself (scheduled or asked for on the System page); CLI runs are the operator's. */
export const backupRunsTable = table(
  "backup_runs",
  {
    id: id(),
    trigger: text("trigger", { enum: ["schedule", "manual"] }).notNull(),
    status: text("status", { enum: ["running", "succeeded", "failed"] }).notNull(),
    file: text("file").notNull(),
    sizeBytes: bigint("size_bytes"),
    fileCount: integer("file_count"),
    error: text("error"),
    startedAt: text("started_at").notNull(),
    finishedAt: text("finished_at"),
    /** Set when retention deleted the archive. */
    prunedAt: text("pruned_at"),
  },
  (t) => [index("backup_runs_started_idx").on(t.startedAt)],
);
