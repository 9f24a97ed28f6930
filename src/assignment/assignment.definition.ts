import { integer, json, primaryKey, table, text, workspaceId } from "../db/schema-kit";

// Each table declared once with the schema kit (src/db/schema-kit.ts): assignment.table.ts builds it for
// SQLite (queries, types, migrations), assignment.table.pg.ts for PostgreSQL.

export const ASSIGN_MODES = ["none", "round_robin", "load_balanced"] as const;
export type AssignMode = (typeof ASSIGN_MODES)[number];
export type AssignmentRule = { target_type: "mailbox" | "team"; target_id: string; mode: AssignMode };

/**
 * A workspace's assignment rules and auto-away; the workspace mode itself is `settings.auto_assign`
 * (one source, so PATCH /v1/workspace and PATCH /v1/assignment agree). No row = no rules, auto-away off.
 */
export const assignmentSettingsTable = table("assignment_settings", {
  workspaceId: workspaceId().primaryKey(),
  rules: json<AssignmentRule[]>("rules").notNull(),
  autoAwayMinutes: integer("auto_away_minutes").notNull().default(0),
  /** The auto-away cutoff the presence job has announced up to (member.updated for those it passed). */
  awayAnnouncedUntil: text("away_announced_until"),
  updatedAt: text("updated_at").notNull(),
});

/**
 * Round robin's place per scope (`workspace`, `mailbox:<id>`, `team:<id>`): the member assigned
 * last. Stored, so the turn order survives restarts and is shared by every process.
 */
export const assignmentPointersTable = table(
  "assignment_pointers",
  {
    workspaceId: workspaceId(),
    scope: text("scope").notNull(),
    lastUserId: text("last_user_id").notNull(),
    updatedAt: text("updated_at").notNull(),
  },
  (t) => [primaryKey(t.workspaceId, t.scope)],
);
