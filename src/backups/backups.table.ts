import { sqliteTable } from "../db/schema-kit";
import { backupRunsTable } from "./backups.definition";

/** The SQLite builds of backups.definition.ts: what every query, type and migration uses. */
export const backupRuns = sqliteTable("backup_runs", backupRunsTable);
