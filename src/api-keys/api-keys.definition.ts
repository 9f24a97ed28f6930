import { createdAt, id, index, json, table, text, timestamp, uniqueIndex, workspaceId } from "../db/schema-kit";

// Each table declared once with the schema kit (src/db/schema-kit.ts): api-keys.table.ts builds it for
// SQLite (queries, types, migrations), api-keys.table.pg.ts for PostgreSQL.

export const apiKeysTable = table(
  "api_keys",
  {
    id: id(),
    workspaceId: workspaceId(),
    name: text("name").notNull(),
    prefix: text("prefix").notNull(),
    keyHash: text("key_hash").notNull(),
    scopes: json<string[]>("scopes").notNull(),
    lastUsedAt: timestamp("last_used_at"),
    expiresAt: timestamp("expires_at"),
    createdBy: text("created_by"),
    revokedAt: timestamp("revoked_at"),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("api_keys_hash_unique").on(t.keyHash),
    index("api_keys_workspace_idx").on(t.workspaceId, t.createdAt),
  ],
);
