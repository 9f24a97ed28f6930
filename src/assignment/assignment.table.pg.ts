/**
 * The PostgreSQL builds of assignment.definition.ts under the names the feature imports:
 * `tsconfig.pg.json` resolves `./assignment.table` here. Not named `*.table.ts`, so drizzle-kit (SQLite) never reads it.
 */
import { pgTable } from "../db/schema-kit";
import { assignmentPointersTable, assignmentSettingsTable } from "./assignment.definition";

export { ASSIGN_MODES, type AssignmentRule, type AssignMode } from "./assignment.definition";

export const assignmentSettings = pgTable("assignment_settings", assignmentSettingsTable);
export const assignmentPointers = pgTable("assignment_pointers", assignmentPointersTable);
