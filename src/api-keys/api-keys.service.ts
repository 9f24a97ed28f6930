import { first, one } from "../db/store";
import { and, desc, eq, isNull, lt, or } from "drizzle-orm";
import { actorUserId, type RequestContext, type Scope } from "../auth/context";
import { scopesBeyond } from "../auth/grants";
import { API_KEY_PREFIX } from "../auth/credentials";
import { signalAccessEnded } from "../auth/session-signals";
import { recordAudit } from "../audit/audit.public";
import { decodeCursor, pageOf } from "../db/cursor";
import type { Db, Queryable } from "../db/database";
import { forbidden, notFound } from "../lib/errors";
import { userRef } from "../identity/identity.public";
import { presentApiKey } from "./api-keys.present";
import { afterCommit, transact } from "../db/tx";
import { sha256Hex } from "../lib/crypto";
import { newId, randomToken } from "../lib/ids";
import { apiKeys } from "./api-keys.table";
import type { Clock } from "../lib/clock";

export type CreateApiKeyInput = { name: string; scopes: Scope[]; expires_at?: string | null };

type ApiKeyRow = typeof apiKeys.$inferSelect;

/**
 * An API key managing keys grants no more than it holds (src/auth/grants.ts): no scope it lacks,
 * and no life beyond its own expiry (a key that expires cannot mint or extend one that does not).
 */
async function assertGrantable(
  db: Queryable,
  ctx: RequestContext,
  scopes: readonly string[],
  expiresAt: string | null,
): Promise<void> {
  const beyond = scopesBeyond(ctx, scopes);
  if (beyond.length) throw forbidden(`An API key cannot grant scopes it lacks: ${beyond.join(", ")}.`);
  if (ctx.actor.type !== "api_key") return;
  const own = (await findApiKey(db, ctx.workspaceId, ctx.actor.apiKeyId))?.expiresAt ?? null;
  if (own !== null && (expiresAt === null || Date.parse(expiresAt) > Date.parse(own))) {
    throw forbidden(`An API key cannot grant access beyond its own expiry (${own}).`);
  }
}

/** A key changes or revokes only keys within its own scopes, so it cannot repoint or disable a wider one. */
function assertManageable(ctx: RequestContext, target: ApiKeyRow): void {
  const beyond = scopesBeyond(ctx, target.scopes);
  if (beyond.length) throw forbidden(`An API key cannot change a key holding scopes it lacks: ${beyond.join(", ")}.`);
}

/** Creates a key; the secret exists only in this return value, the store keeps its hash. */
export async function createApiKey(ctx: RequestContext, input: CreateApiKeyInput, deps: { db: Db; clock: Clock }) {
  await assertGrantable(deps.db, ctx, input.scopes, input.expires_at ?? null);
  const secret = `${API_KEY_PREFIX}${randomToken(32)}`;
  const id = newId();
  const row = await transact(deps.db, async (tx) => {
    const created = one(
      await tx
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
          createdAt: deps.clock.now().toISOString(),
        })
        .returning(),
    );
    await recordAudit(tx, ctx, {
      action: "api_key.created",
      entityType: "api_key",
      entityId: id,
      data: { name: input.name, scopes: created.scopes },
    });
    return created;
  });
  return { row, secret };
}

export async function findApiKey(db: Queryable, workspaceId: string, id: string) {
  return first(
    await db
      .select()
      .from(apiKeys)
      .where(and(eq(apiKeys.workspaceId, workspaceId), eq(apiKeys.id, id), isNull(apiKeys.revokedAt)))
      .limit(1),
  );
}

export const presentApiKeyRow = async (db: Queryable, row: ApiKeyRow) =>
  presentApiKey(row, await userRef(db, row.createdBy));

/** Live (not revoked) keys, newest first; expired keys stay listed so they can be renewed or deleted. */
export async function listApiKeys(ctx: RequestContext, query: { limit: number; cursor?: string }, deps: { db: Db }) {
  const after = decodeCursor(query.cursor, 2);
  const rows = await deps.db
    .select()
    .from(apiKeys)
    .where(
      and(
        eq(apiKeys.workspaceId, ctx.workspaceId),
        isNull(apiKeys.revokedAt),
        after
          ? or(
              lt(apiKeys.createdAt, String(after[0])),
              and(eq(apiKeys.createdAt, String(after[0])), lt(apiKeys.id, String(after[1]))),
            )
          : undefined,
      ),
    )
    .orderBy(desc(apiKeys.createdAt), desc(apiKeys.id))
    .limit(query.limit + 1);
  return await pageOf(
    rows,
    query.limit,
    async (r) => await presentApiKeyRow(deps.db, r),
    (r) => [r.createdAt, r.id],
  );
}

export async function getApiKey(ctx: RequestContext, id: string, deps: { db: Db }) {
  const row = await findApiKey(deps.db, ctx.workspaceId, id);
  if (!row) throw notFound("API key");
  return row;
}

export type UpdateApiKeyInput = { name?: string; scopes?: Scope[]; expires_at?: string | null };

/** Renames a key, replaces its scopes or moves its expiry; effective on the key's next request. */
export async function updateApiKey(ctx: RequestContext, id: string, input: UpdateApiKeyInput, deps: { db: Db }) {
  return await transact(deps.db, async (tx) => {
    const current = await findApiKey(tx, ctx.workspaceId, id);
    if (!current) throw notFound("API key");
    assertManageable(ctx, current);
    const next = {
      name: input.name ?? current.name,
      scopes: input.scopes ? [...new Set(input.scopes)] : current.scopes,
      expiresAt: input.expires_at !== undefined ? input.expires_at : current.expiresAt,
    };
    if (input.scopes || input.expires_at !== undefined) await assertGrantable(tx, ctx, next.scopes, next.expiresAt);
    const changes: Record<string, { from: unknown; to: unknown }> = {};
    if (next.name !== current.name) changes.name = { from: current.name, to: next.name };
    if (JSON.stringify(next.scopes) !== JSON.stringify(current.scopes))
      changes.scopes = { from: current.scopes, to: next.scopes };
    if (next.expiresAt !== current.expiresAt) changes.expires_at = { from: current.expiresAt, to: next.expiresAt };
    if (!Object.keys(changes).length) return current;
    const row = one(await tx.update(apiKeys).set(next).where(eq(apiKeys.id, id)).returning());
    await recordAudit(tx, ctx, { action: "api_key.updated", entityType: "api_key", entityId: id, data: changes });
    // New scopes or expiry apply from the next request: cached credentials and open sockets go.
    if (changes.scopes || changes.expires_at)
      afterCommit(tx, () => signalAccessEnded(deps.db, { kind: "api_key", apiKeyId: id }));
    return row;
  });
}

/** Revokes a key at once: the credential check reads revoked_at on every request. */
export async function revokeApiKey(ctx: RequestContext, id: string, deps: { db: Db; clock: Clock }): Promise<void> {
  await transact(deps.db, async (tx) => {
    const target = await findApiKey(tx, ctx.workspaceId, id);
    if (target) assertManageable(ctx, target);
    const row = one(
      await tx
        .update(apiKeys)
        .set({ revokedAt: deps.clock.now().toISOString() })
        .where(and(eq(apiKeys.workspaceId, ctx.workspaceId), eq(apiKeys.id, id), isNull(apiKeys.revokedAt)))
        .returning(),
    );
    if (!row) throw notFound("API key");
    await recordAudit(tx, ctx, {
      action: "api_key.revoked",
      entityType: "api_key",
      entityId: id,
      data: { name: row.name, prefix: row.prefix },
    });
  });
  signalAccessEnded(deps.db, { kind: "api_key", apiKeyId: id });
}
