import { deskTable } from "../db/schema-kit";
import { triageSettingsTable } from "./triage.definition";

/** The builds of triage.definition.ts this process runs on (schema-kit `deskTable`): what every query, type and migration uses. */
export const triageSettings = deskTable("triage_settings", triageSettingsTable);
