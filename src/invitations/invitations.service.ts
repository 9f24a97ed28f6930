import { first, one } from "../db/store";
import { and, desc, eq, gt, isNull, lt, or } from "drizzle-orm";
import { actorUserId, type RequestContext } from "../auth/context";
import { grantDeniedDetail, mayGrantRole } from "../auth/grants";
import { recordAudit } from "../audit/audit.public";
import { decodeCursor, pageOf } from "../db/cursor";
import type { Db, Queryable, Tx } from "../db/database";
import { transact } from "../db/tx";
import type { Config } from "../config/config";
import { conflict, forbidden, invalidAt, notFound } from "../lib/errors";
import type { Clock } from "../lib/clock";
import type { Ports } from "../lib/ports";
import { sha256Hex, type SecretBox } from "../lib/crypto";
import type { Logger } from "../lib/logger";
import { newId, randomToken } from "../lib/ids";
import { addWorkspaceMember, isMemberEmail, memberRoleOf } from "../members/members.public";
import type { MemberJson } from "../members/members.public";
import { insertUser, userIdByEmail, userRef } from "../identity/identity.public";
import { workspaceRefOf } from "../workspaces/workspaces.public";
import { enqueue } from "../jobs/enqueue";
import { invitationMailJob } from "./invitations.mail";
import { presentInvitation, type InvitationRow } from "./invitations.present";
import { invitations } from "./invitations.table";

export const INVITATION_TTL_MS = 7 * 24 * 3600 * 1000;

type Deps = { db: Db; config: Config; clock: Clock; logger: Logger; secrets: SecretBox; ports: Ports };
type InvitedRole = InvitationRow["role"];

const inviteUrl = (config: Config, token: string) => `${config.baseUrl}/invite/${token}`;

const pendingWhere = (now: string) =>
  and(isNull(invitations.acceptedAt), isNull(invitations.revokedAt), gt(invitations.expiresAt, now));

export const presentInvitationRow = async (db: Queryable, row: InvitationRow) =>
  presentInvitation(row, await userRef(db, row.invitedBy));

/**
 * Invites an email address: a previous pending invitation for it is replaced. The accept link's
 * token exists only in the answer and the mail; the store keeps its hash. The link grants its role
 * to whoever holds it, so inviting is granting: the caller must hold that role's reach.
 */
export async function createInvitation(ctx: RequestContext, input: { email: string; role: InvitedRole }, deps: Deps) {
  if (!mayGrantRole(ctx, input.role)) throw forbidden(grantDeniedDetail(ctx, input.role));
  const token = `inv_${randomToken(32)}`;
  const sealedUrl = deps.secrets.seal(inviteUrl(deps.config, token));
  const now = deps.clock.now();
  const row = await transact(deps.db, async (tx) => {
    if (!(await workspaceRefOf(tx, ctx.workspaceId))) throw notFound("Workspace");
    if (await isMemberEmail(tx, ctx.workspaceId, input.email))
      throw conflict(`${input.email} is already a member of this workspace.`);
    await tx
      .update(invitations)
      .set({ revokedAt: now.toISOString() })
      .where(
        and(
          eq(invitations.workspaceId, ctx.workspaceId),
          eq(invitations.email, input.email),
          pendingWhere(now.toISOString()),
        ),
      );
    const row = one(
      await tx
        .insert(invitations)
        .values({
          id: newId(),
          workspaceId: ctx.workspaceId,
          email: input.email,
          role: input.role,
          tokenHash: sha256Hex(token),
          linkSealed: sealedUrl,
          invitedBy: actorUserId(ctx),
          expiresAt: new Date(now.getTime() + INVITATION_TTL_MS).toISOString(),
          createdAt: now.toISOString(),
        })
        .returning(),
    );
    await recordAudit(tx, ctx, {
      action: "invitation.created",
      entityType: "invitation",
      entityId: row.id,
      data: { email: row.email, role: row.role },
    });
    await enqueue(tx, invitationMailJob, { invitation_id: row.id, sealed_url: sealedUrl });
    return row;
  });
  return { row, url: inviteUrl(deps.config, token) };
}

/** Where this server's invitation mail goes: a relay delivers it; the outbox folder reaches nobody. */
export const invitationMailVia = (config: Config): "relay" | "outbox" => (config.smtpRelayUrl ? "relay" : "outbox");

/**
 * A pending invitation's accept link again, for an admin to copy (`mail: false`) or to mail again
 * with seven more days (`mail: true`). The link grants its role, so the caller needs the same reach
 * as to create it. An invitation from before links were kept gets a new link (the old one stops working).
 */
export async function invitationLink(ctx: RequestContext, id: string, input: { mail: boolean }, deps: Deps) {
  const now = deps.clock.now();
  return await transact(deps.db, async (tx) => {
    const found = first(
      await tx
        .select()
        .from(invitations)
        .where(
          and(eq(invitations.workspaceId, ctx.workspaceId), eq(invitations.id, id), pendingWhere(now.toISOString())),
        )
        .limit(1),
    );
    if (!found) throw notFound("Invitation");
    if (!mayGrantRole(ctx, found.role)) throw forbidden(grantDeniedDetail(ctx, found.role));
    let sealedUrl = found.linkSealed;
    const changes: Partial<InvitationRow> = {};
    if (!sealedUrl) {
      const token = `inv_${randomToken(32)}`;
      sealedUrl = deps.secrets.seal(inviteUrl(deps.config, token));
      Object.assign(changes, { tokenHash: sha256Hex(token), linkSealed: sealedUrl });
    }
    if (input.mail) changes.expiresAt = new Date(now.getTime() + INVITATION_TTL_MS).toISOString();
    const row = Object.keys(changes).length
      ? one(await tx.update(invitations).set(changes).where(eq(invitations.id, found.id)).returning())!
      : found;
    if (input.mail) {
      await recordAudit(tx, ctx, {
        action: "invitation.resent",
        entityType: "invitation",
        entityId: row.id,
        data: { email: row.email, role: row.role },
      });
      await enqueue(tx, invitationMailJob, { invitation_id: row.id, sealed_url: sealedUrl });
    }
    return { row, url: deps.secrets.open(sealedUrl) };
  });
}

/** Pending invitations (not accepted, revoked or expired), newest first. */
export async function listInvitations(ctx: RequestContext, query: { limit: number; cursor?: string }, deps: Deps) {
  const after = decodeCursor(query.cursor, 2);
  const rows = await deps.db
    .select()
    .from(invitations)
    .where(
      and(
        eq(invitations.workspaceId, ctx.workspaceId),
        pendingWhere(deps.clock.now().toISOString()),
        after
          ? or(
              lt(invitations.createdAt, String(after[0])),
              and(eq(invitations.createdAt, String(after[0])), lt(invitations.id, String(after[1]))),
            )
          : undefined,
      ),
    )
    .orderBy(desc(invitations.createdAt), desc(invitations.id))
    .limit(query.limit + 1);
  return await pageOf(
    rows,
    query.limit,
    async (r) => await presentInvitationRow(deps.db, r),
    (r) => [r.createdAt, r.id],
  );
}

export async function revokeInvitation(ctx: RequestContext, id: string, deps: Deps): Promise<void> {
  await transact(deps.db, async (tx) => {
    const now = deps.clock.now().toISOString();
    const row = first(
      await tx
        .update(invitations)
        .set({ revokedAt: now })
        .where(and(eq(invitations.workspaceId, ctx.workspaceId), eq(invitations.id, id), pendingWhere(now)))
        .returning(),
    );
    if (!row) throw notFound("Invitation");
    await recordAudit(tx, ctx, {
      action: "invitation.revoked",
      entityType: "invitation",
      entityId: id,
      data: { email: row.email },
    });
  });
}

/** The pending invitation behind a token, with its live workspace; null when unusable. */
async function pendingByToken(tx: Queryable, token: string, now: string) {
  const invitation = first(
    await tx
      .select()
      .from(invitations)
      .where(and(eq(invitations.tokenHash, sha256Hex(token)), pendingWhere(now)))
      .limit(1),
  );
  const ref = invitation && (await workspaceRefOf(tx, invitation.workspaceId));
  if (!invitation || !ref || ref.deletedAt !== null) return undefined;
  return { invitation, workspace: { id: ref.id, name: ref.name, slug: ref.slug } };
}

/**
 * An invitation grants its role on behalf of whoever sent it, so that person must still be able to
 * grant it when it is used: an inviter since demoted below the role, or gone from the workspace
 * (or an invitation with no inviter on record), grants nothing. Refused rather than downgraded, so
 * nobody joins with a role other than the one the link promised.
 */
async function assertInviterStillGrants(tx: Queryable, invitation: InvitationRow): Promise<void> {
  const inviterRole = invitation.invitedBy
    ? await memberRoleOf(tx, invitation.workspaceId, invitation.invitedBy)
    : null;
  const inviter: RequestContext | null = inviterRole && {
    workspaceId: invitation.workspaceId,
    actor: { type: "user", userId: invitation.invitedBy ?? "", sessionId: null },
    role: inviterRole,
    scopes: null,
    visibleTeams: [],
    requestId: "invitation",
    ip: null,
  };
  if (!inviter || !mayGrantRole(inviter, invitation.role))
    throw conflict(
      `This invitation can no longer be used: the person who sent it can no longer grant the ${invitation.role} role. Ask an admin of the workspace for a new invitation.`,
      "invitation_inviter_lacks_role",
    );
}

/** Public: what an invitation link offers; 404 when expired, revoked, used or unknown. */
export async function lookupInvitation(token: string, deps: Pick<Deps, "db" | "clock">) {
  const found = await pendingByToken(deps.db, token, deps.clock.now().toISOString());
  if (!found) throw notFound("Invitation");
  await assertInviterStillGrants(deps.db, found.invitation);
  return {
    workspace: { id: found.workspace.id, name: found.workspace.name },
    email: found.invitation.email,
    role: found.invitation.role,
    expires_at: found.invitation.expiresAt,
  };
}

export type AcceptedInvitation = { workspace: { id: string; name: string; slug: string }; member: MemberJson };

/**
 * Joins a user through an invitation token in the caller's transaction; the token works once.
 * A user who is already a member keeps their role.
 */
export async function acceptInvitationFor(
  tx: Tx,
  token: string,
  userId: string,
  meta: { requestId: string; ip: string | null },
  deps: Pick<Deps, "db" | "clock" | "ports">,
): Promise<AcceptedInvitation> {
  const now = deps.clock.now().toISOString();
  const found = await pendingByToken(tx, token, now);
  if (!found) throw notFound("Invitation");
  const { invitation, workspace } = found;
  await assertInviterStillGrants(tx, invitation);
  await tx.update(invitations).set({ acceptedAt: now, acceptedBy: userId }).where(eq(invitations.id, invitation.id));
  const ctx: RequestContext = {
    workspaceId: workspace.id,
    actor: { type: "user", userId, sessionId: null },
    role: invitation.role,
    scopes: null,
    visibleTeams: [],
    requestId: meta.requestId,
    ip: meta.ip,
  };
  const { member } = await addWorkspaceMember(tx, ctx, userId, invitation.role, deps);
  await recordAudit(tx, ctx, {
    action: "invitation.accepted",
    entityType: "invitation",
    entityId: invitation.id,
    data: { email: invitation.email, user_id: userId },
  });
  return { workspace, member };
}

export async function acceptInvitationAsUser(
  token: string,
  userId: string,
  meta: { requestId: string; ip: string | null },
  deps: Pick<Deps, "db" | "clock" | "ports">,
) {
  return await transact(deps.db, async (tx) => await acceptInvitationFor(tx, token, userId, meta, deps));
}

/**
 * Creates the invited person's account (email from the invitation, name and a hashed password
 * from the request) and joins them, in one transaction. Returns the new user's row.
 */
export async function acceptInvitationAsNewUser(
  token: string,
  input: { name?: string; password?: string; passwordHash: string | null },
  meta: { requestId: string; ip: string | null },
  deps: Pick<Deps, "db" | "clock" | "ports">,
) {
  return await transact(deps.db, async (tx) => {
    const found = await pendingByToken(tx, token, deps.clock.now().toISOString());
    if (!found) throw notFound("Invitation");
    await assertInviterStillGrants(tx, found.invitation);
    if (!input.name) throw invalidAt("body.name", "Your name is needed to create your account.");
    if (!input.passwordHash)
      throw invalidAt("body.password", "A password of at least 8 characters is needed to create your account.");
    const email = found.invitation.email;
    if (await userIdByEmail(tx, email))
      throw conflict(`An account for ${email} exists already: sign in, then accept the invitation.`);
    const now = deps.clock.now().toISOString();
    const user = await insertUser(tx, { email, name: input.name, passwordHash: input.passwordHash, now });
    const accepted = await acceptInvitationFor(tx, token, user.id, meta, deps);
    return { user, accepted };
  });
}

/** True once anyone was ever invited to the workspace (the onboarding checklist's "invite a teammate"). */
export const anyInvitationIn = async (db: Queryable, workspaceId: string): Promise<boolean> =>
  first(
    await db.select({ id: invitations.id }).from(invitations).where(eq(invitations.workspaceId, workspaceId)).limit(1),
  ) !== undefined;
