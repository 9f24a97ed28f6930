import { real, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { flag, json } from "../db/columns";

/** A workspace's triage settings (SPEC.md TriageSettings); no row means the defaults. */
export const triageSettings = sqliteTable("triage_settings", {
  workspaceId: text("workspace_id").primaryKey(),
  autoTriage: flag("auto_triage"),
  fields: json<string[]>("fields").notNull(),
  assignAfterTriage: flag("assign_after_triage"),
  threshold: real("threshold").notNull(),
  updatedAt: text("updated_at").notNull(),
});
