import { sql } from "drizzle-orm";
import { index, integer, json, table, text, uniqueIndex } from "../db/schema-kit";

// Each table declared once with the schema kit (src/db/schema-kit.ts): jobs.table.ts builds it for
// SQLite (queries, types, migrations), jobs.table.pg.ts for PostgreSQL.

export const jobsTable = table(
  "jobs",
  {
    id: text("id").primaryKey(),
    kind: text("kind").notNull(),
    workspaceId: text("workspace_id"),
    payload: json<unknown>("payload").notNull(),
    state: text("state", { enum: ["queued", "running", "done", "failed"] }).notNull(),
    runAt: text("run_at").notNull(),
    attempts: integer("attempts").notNull().default(0),
    maxAttempts: integer("max_attempts").notNull(),
    leaseUntil: text("lease_until"),
    /** The runner (one per start) holding the lease; a fresh start of its node requeues what it left. */
    leaseOwner: text("lease_owner"),
    /** DESK_NODE_NAME (else the hostname) of that runner's process. */
    leaseNode: text("lease_node"),
    /** New per claim: an outcome or renewal of an older claim of this row matches nothing (fencing). */
    leaseToken: text("lease_token"),
    /** At most one queued or running job per unique key (recurring jobs, per-mailbox pollers). */
    uniqueKey: text("unique_key"),
    lastError: text("last_error"),
    createdAt: text("created_at").notNull(),
    updatedAt: text("updated_at").notNull(),
  },
  (t) => [
    index("jobs_due_idx").on(t.state, t.runAt),
    // The runner claims per kind: without this, every kind's claim scans the whole due backlog.
    index("jobs_kind_due_idx").on(t.state, t.kind, t.runAt),
    uniqueIndex("jobs_unique_key_active").on(t.uniqueKey).where(sql`state in ('queued','running')`),
  ],
);
