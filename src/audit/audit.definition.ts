import { createdAt, id, index, json, table, text, workspaceId } from "../db/schema-kit";

// Each table declared once with the schema kit (src/db/schema-kit.ts): audit.table.ts builds it for
// SQLite (queries, types, migrations), audit.table.pg.ts for PostgreSQL.

export const auditLogsTable = table(
  "audit_logs",
  {
    id: id(),
    workspaceId: workspaceId(),
    actorType: text("actor_type", { enum: ["user", "api_key", "system"] }).notNull(),
    actorUserId: text("actor_user_id"),
    actorApiKeyId: text("actor_api_key_id"),
    action: text("action").notNull(),
    entityType: text("entity_type").notNull(),
    entityId: text("entity_id"),
    data: json<Record<string, unknown>>("data").notNull(),
    ip: text("ip"),
    createdAt: createdAt(),
  },
  (t) => [index("audit_logs_workspace_idx").on(t.workspaceId, t.createdAt, t.id)],
);
