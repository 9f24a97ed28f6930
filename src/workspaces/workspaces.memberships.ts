import type { Role } from "../auth/context";
import type { Db } from "../db/database";
import { preparedFor } from "../db/prepared";
import { membersSql as m } from "../members/members.public";

export type Membership = { id: string; name: string; slug: string; role: Role };

/**
 * Memberships of live workspaces: members' rows (their own column names, `membersSql`) joined to
 * this folder's workspaces. The SQL reads exactly as it did written out in one place.
 */
const membershipsStatement = preparedFor((sqlite) =>
  sqlite.query<Membership, [string]>(
    `SELECT w.id, w.name, w.slug, m.${m.role} FROM ${m.table} m JOIN workspaces w ON w.id = m.${m.workspaceId} AND w.deleted_at IS NULL WHERE m.${m.userId} = ? ORDER BY m.${m.createdAt}, w.id`,
  ),
);

/**
 * The workspaces a person belongs to, oldest membership first. Prepared once per database:
 * GET /v1/me runs it on every page load.
 */
export async function membershipsOf(db: Db, userId: string): Promise<Membership[]> {
  return membershipsStatement(db).all(userId);
}

/**
 * A person's role in a workspace not deleted, or null when they are no member: asked by the
 * credential resolver and the realtime gateway on every request or grant change.
 */
export function memberRoleLookup(db: Db): (workspaceId: string, userId: string) => Role | null {
  const memberRole = db.$client.query<{ role: Role }, [string, string]>(
    `SELECT m.${m.role} FROM ${m.table} m JOIN workspaces w ON w.id = m.${m.workspaceId} AND w.deleted_at IS NULL WHERE m.${m.workspaceId} = ? AND m.${m.userId} = ?`,
  );
  return (workspaceId, userId) => memberRole.get(workspaceId, userId)?.role ?? null;
}

/**
 * The workspaces (names) that require single sign-on of this person: `settings.sso_only` on, and
 * the person is not their owner (owners keep their password and passkeys as the way back in).
 */
export function ssoOnlyWorkspacesLookup(db: Db): (userId: string) => string[] {
  const statement = db.$client.query<{ name: string }, [string]>(
    `SELECT w.name FROM ${m.table} m JOIN workspaces w ON w.id = m.${m.workspaceId} AND w.deleted_at IS NULL WHERE m.${m.userId} = ? AND m.${m.role} != 'owner' AND json_extract(w.settings, '$.sso_only') = 1 ORDER BY w.name`,
  );
  return (userId) => statement.all(userId).map((r) => r.name);
}
