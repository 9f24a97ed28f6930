import type { Db } from "../db/database";
import { type ApiKeyStatements, apiKeyStatements } from "./api-keys.statements";

export type { ApiKeyRecord } from "./api-keys.statements";

/**
 * The API key lookups machinery asks for (src/auth/credentials.ts on every request, the realtime
 * gateway on each grant change). Statements are prepared once per database: the key read is on the
 * hot path of every API-key request.
 */
export function apiKeyLookups(db: Db): Pick<ApiKeyStatements, "keyByHash" | "touchKey" | "liveKeyScopes"> {
  const { keyByHash, touchKey, liveKeyScopes } = apiKeyStatements(db);
  return { keyByHash, touchKey, liveKeyScopes };
}
