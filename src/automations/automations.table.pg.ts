/**
 * The PostgreSQL builds of automations.definition.ts under the names the feature imports:
 * `tsconfig.pg.json` resolves `./automations.table` here. Not named `*.table.ts`, so drizzle-kit (SQLite) never reads it.
 */
import { pgTable } from "../db/schema-kit";
import { automationRunsTable, automationsTable, automationTimeMarksTable } from "./automations.definition";

export type { AutomationRunNote } from "./automations.definition";

export const automations = pgTable("automations", automationsTable);
export const automationRuns = pgTable("automation_runs", automationRunsTable);
export const automationTimeMarks = pgTable("automation_time_marks", automationTimeMarksTable);
