import { sqliteTable } from "../db/schema-kit";
import { assignmentPointersTable, assignmentSettingsTable } from "./assignment.definition";

export { ASSIGN_MODES, type AssignmentRule, type AssignMode } from "./assignment.definition";

/** The SQLite builds of assignment.definition.ts: what every query, type and migration uses. */
export const assignmentSettings = sqliteTable("assignment_settings", assignmentSettingsTable);
export const assignmentPointers = sqliteTable("assignment_pointers", assignmentPointersTable);
