import type { Queryable } from "../db/database";
import { preparedFor } from "../db/prepared";
import type { ApiKeyCaller } from "../identity/identity.public";
import { workspaceJoinSql } from "../workspaces/workspaces.public";

type KeyRow = { id: string; name: string; createdBy: string | null; w_id: string; w_name: string; w_slug: string };

/** One prepared join for GET /v1/me's API-key answer (a benchmarked hot path): the key and its workspace. */
const keyStatement = preparedFor((sqlite) =>
  sqlite.query<KeyRow, [string]>(
    `SELECT k.id, k.name, k.created_by AS createdBy, w.id AS w_id, w.name AS w_name, w.slug AS w_slug
       FROM api_keys k ${workspaceJoinSql("k.workspace_id")} WHERE k.id = ?`,
  ),
);

/** The key `keyId` with its workspace, deleted workspaces too (the credential was already checked). */
export async function apiKeyCaller(db: Queryable, keyId: string): Promise<ApiKeyCaller | undefined> {
  const row = keyStatement(db).get(keyId);
  return row
    ? {
        id: row.id,
        name: row.name,
        workspace: { id: row.w_id, name: row.w_name, slug: row.w_slug },
        createdBy: row.createdBy,
      }
    : undefined;
}
