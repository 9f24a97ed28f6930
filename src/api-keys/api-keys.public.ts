import type { Db } from "../db/database";
import { type ApiKeyStatements, apiKeyStatements } from "./api-keys.statements";

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
export function apiKeyLookups(db: Db): Pick<ApiKeyStatements, "keyByHash" | "touchKey" | "liveKeyScopes"> {
  const { keyByHash, touchKey, liveKeyScopes } = apiKeyStatements(db);
  return { keyByHash, touchKey, liveKeyScopes };
}
