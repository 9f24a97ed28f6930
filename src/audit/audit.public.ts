/** What other features may use of audit: recording an entry in their own transaction. */
export { recordAudit, type AuditEntry } from "./audit.service";
export { auditListRead } from "./audit.list";
