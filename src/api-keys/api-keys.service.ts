import { and, eq, isNull } from "drizzle-orm";
import { actorUserId, type RequestContext, type Scope } from "../auth/context";
import { API_KEY_PREFIX } from "../auth/credentials";
import { recordAudit } from "../audit/audit.service";
import type { Db } from "../db/database";
import { withTx } from "../db/tx";
import { sha256Hex } from "../lib/crypto";
import { newId, randomToken } from "../lib/ids";
import { apiKeys } from "./api-keys.table";

export type CreateApiKeyInput = { name: string; scopes: Scope[]; expires_at?: string | null };

/** Creates a key; the secret exists only in this return value, the store keeps its hash. */
export function createApiKey(ctx: RequestContext, input: CreateApiKeyInput, deps: { db: Db }) {
  const secret = `${API_KEY_PREFIX}${randomToken(32)}`;
  const id = newId();
  const row = withTx(deps.db, (tx) => {
    const created = tx
      .insert(apiKeys)
      .values({
        id,
        workspaceId: ctx.workspaceId,
        name: input.name,
        prefix: secret.slice(0, API_KEY_PREFIX.length + 6),
        keyHash: sha256Hex(secret),
        scopes: [...new Set(input.scopes)],
        expiresAt: input.expires_at ?? null,
        createdBy: actorUserId(ctx),
        createdAt: new Date().toISOString(),
      })
      .returning()
      .get();
    recordAudit(tx, ctx, { action: "api_key.created", entityType: "api_key", entityId: id, data: { name: input.name, scopes: created.scopes } });
    return created;
  });
  return { row, secret };
}

export function findApiKey(db: Db, workspaceId: string, id: string) {
  return db
    .select()
    .from(apiKeys)
    .where(and(eq(apiKeys.workspaceId, workspaceId), eq(apiKeys.id, id), isNull(apiKeys.revokedAt)))
    .get();
}
