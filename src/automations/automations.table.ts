import { deskTable } from "../db/schema-kit";
import { automationRunsTable, automationsTable, automationTimeMarksTable } from "./automations.definition";

export type { AutomationRunNote } from "./automations.definition";

/** The builds of automations.definition.ts this process runs on (schema-kit `deskTable`): what every query, type and migration uses. */
export const automations = deskTable("automations", automationsTable);
export const automationRuns = deskTable("automation_runs", automationRunsTable);
export const automationTimeMarks = deskTable("automation_time_marks", automationTimeMarksTable);
