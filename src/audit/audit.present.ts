import type { UserRefJson } from "../identity/identity.public";
import type { auditLogs } from "./audit.table";

export type AuditLogRow = typeof auditLogs.$inferSelect;

export const presentAuditLog = (row: AuditLogRow, user: UserRefJson | null) => ({
  id: row.id,
  actor: { type: row.actorType, user, api_key_id: row.actorApiKeyId ?? null },
  action: row.action,
  entity_type: row.entityType,
  entity_id: row.entityId ?? null,
  data: row.data,
  ip: row.ip ?? null,
  created_at: row.createdAt,
});
