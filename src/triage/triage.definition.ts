import { flag, json, real, table, text } from "../db/schema-kit";

// Each table declared once with the schema kit (src/db/schema-kit.ts): triage.table.ts builds it for
// SQLite (queries, types, migrations), triage.table.pg.ts for PostgreSQL.

/** A workspace's triage settings (SPEC.md TriageSettings); no row means the defaults. */
export const triageSettingsTable = table("triage_settings", {
  workspaceId: text("workspace_id").primaryKey(),
  autoTriage: flag("auto_triage"),
  fields: json<string[]>("fields").notNull(),
  assignAfterTriage: flag("assign_after_triage"),
  threshold: real("threshold").notNull(),
  updatedAt: text("updated_at").notNull(),
});
