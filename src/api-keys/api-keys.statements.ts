import type { Queryable } from "../db/database";
import { dialectStatements } from "../db/dialect";
import { postgresQuery } from "../db/postgres/query";
import { sqliteOf } from "../db/sqlite/prepared";
import type { ApiKeyCaller } from "../identity/identity.public";
import { liveWorkspaceJoinSql, workspaceJoinSql } from "../workspaces/workspaces.public";

/** An API key as the credential resolver and the realtime gateway need it. */
export type ApiKeyRecord = {
  id: string;
  workspace_id: string;
  scopes: string;
  expires_at: string | null;
  revoked_at: string | null;
  created_by: string | null;
};

/**
 * The key reads of every API-key request (the credential resolver, the realtime gateway, GET
 * /v1/me), prepared once per connection: drizzle would build their SQL text on every call. The SQL
 * is portable; the PostgreSQL twin runs it with `$n` parameters.
 */
export interface ApiKeyStatements {
  /** The key whose secret hashes to `hash`, in a workspace not deleted; revoked and expired keys too. */
  keyByHash(hash: string): Promise<ApiKeyRecord | null>;
  /** Records the key's last use (a hint, not an audit trail). */
  touchKey(id: string, at: string): Promise<void>;
  /** The scopes (JSON text) of a key still usable at `now` in the workspace, or null. */
  liveKeyScopes(id: string, workspaceId: string, now: string): Promise<string | null>;
  /** The key with its workspace, deleted workspaces too (the credential was already checked). */
  caller(keyId: string): (ApiKeyCaller | undefined) | Promise<ApiKeyCaller | undefined>;
}

type CallerRow = { id: string; name: string; createdBy: string | null; w_id: string; w_name: string; w_slug: string };

const KEY_BY_HASH = `SELECT k.id, k.workspace_id, k.scopes, k.expires_at, k.revoked_at, k.created_by FROM api_keys k ${liveWorkspaceJoinSql("k.workspace_id")} WHERE k.key_hash = ?`;
const TOUCH_KEY = "UPDATE api_keys SET last_used_at = ? WHERE id = ?";
const LIVE_KEY_SCOPES = `SELECT k.scopes FROM api_keys k ${liveWorkspaceJoinSql("k.workspace_id")} WHERE k.id = ? AND k.workspace_id = ? AND k.revoked_at IS NULL AND (k.expires_at IS NULL OR k.expires_at > ?)`;
// One join for GET /v1/me's API-key answer (a benchmarked hot path): the key and its workspace.
const CALLER = `SELECT k.id, k.name, k.created_by AS "createdBy", w.id AS w_id, w.name AS w_name, w.slug AS w_slug
       FROM api_keys k ${workspaceJoinSql("k.workspace_id")} WHERE k.id = ?`;

const callerOf = (row: CallerRow | null): ApiKeyCaller | undefined =>
  row
    ? {
        id: row.id,
        name: row.name,
        workspace: { id: row.w_id, name: row.w_name, slug: row.w_slug },
        createdBy: row.createdBy,
      }
    : undefined;

export const apiKeyStatements = dialectStatements<ApiKeyStatements>({
  sqlite: (db: Queryable) => {
    const sqlite = sqliteOf(db);
    const keyByHash = sqlite.query<ApiKeyRecord, [string]>(KEY_BY_HASH);
    const touchKey = sqlite.query<unknown, [string, string]>(TOUCH_KEY);
    const liveKeyScopes = sqlite.query<{ scopes: string }, [string, string, string]>(LIVE_KEY_SCOPES);
    const caller = sqlite.query<CallerRow, [string]>(CALLER);
    return {
      keyByHash: async (hash) => keyByHash.get(hash),
      touchKey: async (id, at) => {
        touchKey.run(at, id);
      },
      liveKeyScopes: async (id, workspaceId, now) => liveKeyScopes.get(id, workspaceId, now)?.scopes ?? null,
      caller: (keyId) => callerOf(caller.get(keyId)),
    };
  },
  postgres: (db: Queryable) => {
    // `scopes` is jsonb there: answered as its JSON text, as SQLite stores it.
    const keyByHash = postgresQuery<ApiKeyRecord, [string]>(
      db,
      KEY_BY_HASH.replace("k.scopes,", "k.scopes::text AS scopes,"),
    );
    const touchKey = postgresQuery<unknown, [string, string]>(db, TOUCH_KEY);
    const liveKeyScopes = postgresQuery<{ scopes: string }, [string, string, string]>(
      db,
      LIVE_KEY_SCOPES.replace("SELECT k.scopes", "SELECT k.scopes::text AS scopes"),
    );
    const caller = postgresQuery<CallerRow, [string]>(db, CALLER);
    return {
      keyByHash: (hash) => keyByHash.get(hash),
      touchKey: (id, at) => touchKey.run(at, id),
      liveKeyScopes: async (id, workspaceId, now) => (await liveKeyScopes.get(id, workspaceId, now))?.scopes ?? null,
      caller: async (keyId) => callerOf(await caller.get(keyId)),
    };
  },
});
