import { eq } from "drizzle-orm";
import type { UserJson, UserRow } from "../auth/auth.present";
import { presentUser } from "../auth/auth.present";
import { users } from "../auth/auth.table";
import type { Credential } from "../auth/credentials";
import { membershipsOf, type Membership } from "../members/members.public";
import { preparedFor } from "../db/prepared";
import type { Deps } from "../deps";
import { unauthorized } from "../lib/errors";

export type MeAnswer = {
  user: UserJson | null;
  workspaces: Membership[];
  api_key?: { id: string; name: string; scopes: string[] };
};

type KeyRow = {
  key_id: string;
  key_name: string;
  scopes: string;
  w_id: string;
  w_name: string;
  w_slug: string;
  u_id: string | null;
  u_name: string | null;
  u_email: string | null;
  u_avatar_url: string | null;
  u_avatar_source: string | null;
  u_mfa_enabled: number | null;
  u_created_at: string | null;
};

/** One prepared join for the API-key answer: the key, its workspace and its creator. Benchmarked hot path. */
const keyStatement = preparedFor((sqlite) =>
  sqlite.query<KeyRow, [string]>(
    `SELECT k.id AS key_id, k.name AS key_name, k.scopes, w.id AS w_id, w.name AS w_name, w.slug AS w_slug,
            u.id AS u_id, u.name AS u_name, u.email AS u_email, u.avatar_url AS u_avatar_url, u.avatar_source AS u_avatar_source,
            u.mfa_enabled AS u_mfa_enabled, u.created_at AS u_created_at
       FROM api_keys k JOIN workspaces w ON w.id = k.workspace_id LEFT JOIN users u ON u.id = k.created_by
      WHERE k.id = ?`,
  ),
);

export const findUserRow = (deps: Pick<Deps, "db">, userId: string): UserRow | undefined =>
  deps.db.select().from(users).where(eq(users.id, userId)).get();

/**
 * GET /v1/me for any credential. A person: themselves and their workspaces. An API key: its
 * creator (or null), its own workspace with the role keys act with (admin), and the key itself.
 */
export function describeCaller(deps: Pick<Deps, "db">, credential: Credential): MeAnswer {
  if (credential.kind === "api_key") {
    const row = keyStatement(deps.db).get(credential.apiKeyId);
    if (!row) throw unauthorized();
    const user: UserJson | null = row.u_id
      ? {
          id: row.u_id,
          name: row.u_name!,
          email: row.u_email!,
          avatar_url: row.u_avatar_url,
          avatar_source: row.u_avatar_source,
          mfa_enabled: row.u_mfa_enabled === 1,
          created_at: row.u_created_at!,
        }
      : null;
    return {
      user,
      workspaces: [{ id: row.w_id, name: row.w_name, slug: row.w_slug, role: "admin" }],
      api_key: { id: row.key_id, name: row.key_name, scopes: credential.scopes },
    };
  }
  const user = findUserRow(deps, credential.userId);
  if (!user) throw unauthorized();
  return { user: presentUser(user), workspaces: membershipsOf(deps.db, user.id) };
}

export function updateMe(deps: Pick<Deps, "db" | "clock">, userId: string, input: { name?: string }): UserRow {
  const changes: Partial<UserRow> = { updatedAt: deps.clock.now().toISOString() };
  if (input.name !== undefined) changes.name = input.name;
  const row = deps.db.update(users).set(changes).where(eq(users.id, userId)).returning().get();
  if (!row) throw unauthorized();
  return row;
}
