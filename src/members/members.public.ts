import type { Role } from "../auth/context";
import type { Db, Queryable } from "../db/database";
import { preparedFor } from "../db/prepared";

export type Membership = { id: string; name: string; slug: string; role: Role };

const membershipsStatement = preparedFor((sqlite) =>
  sqlite.query<Membership, [string]>(
    "SELECT w.id, w.name, w.slug, m.role FROM members m JOIN workspaces w ON w.id = m.workspace_id AND w.deleted_at IS NULL WHERE m.user_id = ? ORDER BY m.created_at, w.id",
  ),
);

/**
 * The workspaces a person belongs to, oldest membership first. Prepared once per database:
 * GET /v1/me runs it on every page load.
 */
export function membershipsOf(db: Db, userId: string): Membership[] {
  return membershipsStatement(db).all(userId);
}

/**
 * A person's role in a workspace not deleted, or null when they are no member: asked by the
 * credential resolver and the realtime gateway on every request or grant change.
 */
export function memberRoleLookup(db: Db): (workspaceId: string, userId: string) => Role | null {
  const memberRole = db.$client.query<{ role: Role }, [string, string]>(
    "SELECT m.role FROM members m JOIN workspaces w ON w.id = m.workspace_id AND w.deleted_at IS NULL WHERE m.workspace_id = ? AND m.user_id = ?",
  );
  return (workspaceId, userId) => memberRole.get(workspaceId, userId)?.role ?? null;
}

const assignableByEmailStatement = preparedFor((sqlite) =>
  sqlite.query<{ user_id: string }, [string, string]>(
    "SELECT m.user_id FROM members m JOIN users u ON u.id = m.user_id WHERE m.workspace_id = ? AND u.email = ? AND m.role != 'viewer'",
  ),
);

/** The member (not a viewer) with this email, as imports match another desk's agents to people here. */
export function assignableMemberByEmail(db: Queryable, workspaceId: string, email: string): string | null {
  return assignableByEmailStatement(db).get(workspaceId, email.trim().toLowerCase())?.user_id ?? null;
}

/**
 * The workspaces (names) that require single sign-on of this person: `settings.sso_only` on, and
 * the person is not their owner (owners keep their password and passkeys as the way back in).
 */
export function ssoOnlyWorkspacesLookup(db: Db): (userId: string) => string[] {
  const statement = db.$client.query<{ name: string }, [string]>(
    "SELECT w.name FROM members m JOIN workspaces w ON w.id = m.workspace_id AND w.deleted_at IS NULL WHERE m.user_id = ? AND m.role != 'owner' AND json_extract(w.settings, '$.sso_only') = 1 ORDER BY w.name",
  );
  return (userId) => statement.all(userId).map((r) => r.name);
}

/** What other features may use of members: membership reads and the writes workspaces and invitations make. */
export {
  addWorkspaceMember,
  adminIdsOfWorkspace,
  assignableMembers,
  findMember,
  insertOwnerMembership,
  isMember,
  isMemberEmail,
  memberCountsOf,
  memberIdsOfWorkspace,
  memberNamesOf,
  memberRoleOf,
  membersAmong,
  membersLastSeenBetween,
  publishMemberUpdated,
  setMemberAvailability,
  setMemberRole,
  setUserPicture,
  touchMemberSeen,
  type AssignableMember,
  type MemberLeft,
} from "./members.service";
export type { MemberJson } from "./members.present";
export { MemberSchema } from "./members.schemas";
export { openTicketsOf, registerOpenTicketCounter, type OpenTicketCounter } from "./members.open-tickets";
export { presenceOf, registerAwayCutoff, type AwayCutoff } from "./members.presence";
