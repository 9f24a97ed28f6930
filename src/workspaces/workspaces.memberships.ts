import type { Role } from "../auth/context";
import type { Db } from "../db/database";
import { type Membership, workspaceStatements } from "./workspaces.statements";

/**
 * The workspaces a person belongs to, oldest membership first. Prepared once per database:
 * GET /v1/me runs it on every page load.
 */
export const membershipsOf = (db: Db, userId: string): Membership[] | Promise<Membership[]> =>
  workspaceStatements(db).memberships(userId);

/**
 * A person's role in a workspace not deleted, or null when they are no member: asked by the
 * credential resolver and the realtime gateway on every request or grant change.
 */
export function memberRoleLookup(db: Db): (workspaceId: string, userId: string) => Role | null | Promise<Role | null> {
  return workspaceStatements(db).memberRole;
}

/**
 * The workspaces (names) that require single sign-on of this person: `settings.sso_only` on, and
 * the person is not their owner (owners keep their password and passkeys as the way back in).
 */
export function ssoOnlyWorkspacesLookup(db: Db): (userId: string) => string[] | Promise<string[]> {
  return workspaceStatements(db).ssoOnlyWorkspaces;
}
