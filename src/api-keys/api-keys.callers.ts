import type { Queryable } from "../db/database";
import type { ApiKeyCaller } from "../identity/identity.public";
import { apiKeyStatements } from "./api-keys.statements";

/** The key `keyId` with its workspace, deleted workspaces too (the credential was already checked). */
export const apiKeyCaller = (
  db: Queryable,
  keyId: string,
): (ApiKeyCaller | undefined) | Promise<ApiKeyCaller | undefined> => apiKeyStatements(db).caller(keyId);
