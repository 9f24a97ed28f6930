/**
 * The PostgreSQL builds of backups.definition.ts under the names the feature imports:
 * `tsconfig.pg.json` resolves `./backups.table` here. Not named `*.table.ts`, so drizzle-kit (SQLite) never reads it.
 */
import { pgTable } from "../db/schema-kit";
import { backupRunsTable } from "./backups.definition";

export const backupRuns = pgTable("backup_runs", backupRunsTable);
