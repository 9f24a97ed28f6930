import { deskTable } from "../db/schema-kit";
import { auditLogsTable } from "./audit.definition";

/** The builds of audit.definition.ts this process runs on (schema-kit `deskTable`): what every query, type and migration uses. */
export const auditLogs = deskTable("audit_logs", auditLogsTable);
