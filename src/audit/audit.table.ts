import { sqliteTable } from "../db/schema-kit";
import { auditLogsTable } from "./audit.definition";

/** The SQLite builds of audit.definition.ts: what every query, type and migration uses. */
export const auditLogs = sqliteTable("audit_logs", auditLogsTable);
