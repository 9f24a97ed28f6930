import { sqliteTable } from "../db/schema-kit";
import { triageSettingsTable } from "./triage.definition";

/** The SQLite builds of triage.definition.ts: what every query, type and migration uses. */
export const triageSettings = sqliteTable("triage_settings", triageSettingsTable);
