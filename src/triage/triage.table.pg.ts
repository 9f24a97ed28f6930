/**
 * The PostgreSQL builds of triage.definition.ts under the names the feature imports:
 * `tsconfig.pg.json` resolves `./triage.table` here. Not named `*.table.ts`, so drizzle-kit (SQLite) never reads it.
 */
import { pgTable } from "../db/schema-kit";
import { triageSettingsTable } from "./triage.definition";

export const triageSettings = pgTable("triage_settings", triageSettingsTable);
