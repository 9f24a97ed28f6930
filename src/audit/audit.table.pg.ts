/**
 * The PostgreSQL builds of audit.definition.ts under the names the feature imports:
 * `tsconfig.pg.json` resolves `./audit.table` here. Not named `*.table.ts`, so drizzle-kit (SQLite) never reads it.
 */
import { pgTable } from "../db/schema-kit";
import { auditLogsTable } from "./audit.definition";

export const auditLogs = pgTable("audit_logs", auditLogsTable);
