import { sqliteTable } from "../db/schema-kit";
import { automationRunsTable, automationsTable, automationTimeMarksTable } from "./automations.definition";

export type { AutomationRunNote } from "./automations.definition";

/** The SQLite builds of automations.definition.ts: what every query, type and migration uses. */
export const automations = sqliteTable("automations", automationsTable);
export const automationRuns = sqliteTable("automation_runs", automationRunsTable);
export const automationTimeMarks = sqliteTable("automation_time_marks", automationTimeMarksTable);
