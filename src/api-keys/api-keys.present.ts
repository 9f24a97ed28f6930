import type { UserRefJson } from "../identity/identity.public";
import type { apiKeys } from "./api-keys.table";

type ApiKeyRow = typeof apiKeys.$inferSelect;

export function presentApiKey(row: ApiKeyRow, createdBy: UserRefJson | null) {
  return {
    id: row.id,
    name: row.name,
    prefix: row.prefix,
    scopes: row.scopes,
    last_used_at: row.lastUsedAt ?? null,
    expires_at: row.expiresAt ?? null,
    created_at: row.createdAt,
    created_by: createdBy,
  };
}
