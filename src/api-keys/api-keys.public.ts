import type { Db } from "../db/database";
import { liveWorkspaceJoinSql } from "../workspaces/workspaces.public";

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
 * The API key lookups machinery asks for (src/auth/credentials.ts on every request, the realtime
 * gateway on each grant change). Statements are prepared once per database: the key read is on the
 * hot path of every API-key request.
 */
export function apiKeyLookups(db: Db) {
  const sqlite = db.$client;
  const keyByHash = sqlite.query<ApiKeyRecord, [string]>(
    `SELECT k.id, k.workspace_id, k.scopes, k.expires_at, k.revoked_at, k.created_by FROM api_keys k ${liveWorkspaceJoinSql("k.workspace_id")} WHERE k.key_hash = ?`,
  );
  const touchKey = sqlite.query<unknown, [string, string]>("UPDATE api_keys SET last_used_at = ? WHERE id = ?");
  const liveKeyScopes = sqlite.query<{ scopes: string }, [string, string, string]>(
    `SELECT k.scopes FROM api_keys k ${liveWorkspaceJoinSql("k.workspace_id")} WHERE k.id = ? AND k.workspace_id = ? AND k.revoked_at IS NULL AND (k.expires_at IS NULL OR k.expires_at > ?)`,
  );
  return {
    /** The key whose secret hashes to `hash`, in a workspace not deleted; revoked and expired keys too. */
    keyByHash: async (hash: string): Promise<ApiKeyRecord | null> => keyByHash.get(hash),
    /** Records the key's last use (a hint, not an audit trail). */
    touchKey: async (id: string, at: string): Promise<void> => {
      touchKey.run(at, id);
    },
    /** The scopes (JSON text) of a key still usable at `now` in the workspace, or null. */
    liveKeyScopes: async (id: string, workspaceId: string, now: string): Promise<string | null> =>
      liveKeyScopes.get(id, workspaceId, now)?.scopes ?? null,
  };
}
