import { index, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { createdAt, id, json, workspaceId } from "../db/columns";

export const auditLogs = sqliteTable(
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
