import { deskTable } from "../db/schema-kit";
import { backupRunsTable } from "./backups.definition";

/** The builds of backups.definition.ts this process runs on (schema-kit `deskTable`): what every query, type and migration uses. */
export const backupRuns = deskTable("backup_runs", backupRunsTable);
