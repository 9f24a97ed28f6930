import { deskTable } from "../db/schema-kit";
import { assignmentPointersTable, assignmentSettingsTable } from "./assignment.definition";

export { ASSIGN_MODES, type AssignmentRule, type AssignMode } from "./assignment.definition";

/** The builds of assignment.definition.ts this process runs on (schema-kit `deskTable`): what every query, type and migration uses. */
export const assignmentSettings = deskTable("assignment_settings", assignmentSettingsTable);
export const assignmentPointers = deskTable("assignment_pointers", assignmentPointersTable);
