import { first } from "../db/store";
import { and, asc, count, eq, gt, gte, inArray, lt, ne, or } from "drizzle-orm";
import { setUserAvatar, users } from "../identity/identity.public";
import { roleAtLeast, type RequestContext, type Role } from "../auth/context";
import { grantDeniedDetail, mayAlterRole, mayGrantRole } from "../auth/grants";
import { signalAccessEnded } from "../auth/session-signals";
import { recordAudit } from "../audit/audit.public";
import { decodeCursor, pageOf, type Page } from "../db/cursor";
import type { Db, Queryable, Tx } from "../db/database";
import { afterCommit, transact } from "../db/tx";
import { memberAdded, memberRemoved, memberUpdated } from "./members.events";
import { appendEvent } from "../events/append";
import { userTopic } from "../events/envelope";
import { forbidden, invalidAt, notFound } from "../lib/errors";
import { members } from "./members.table";
import { openTicketsOf } from "./members.open-tickets";
import { awayCutoffOf, presenceOf } from "./members.presence";
import { presentMember, type MemberJson, type MemberRow } from "./members.present";
import type { Clock } from "../lib/clock";
import { definePort, type Ports } from "../lib/ports";

type Deps = { db: Db; clock: Clock; ports: Ports };
/** What presenting a member reads besides its rows: the open-ticket count and auto-away rule of features above. */
type PresentDeps = Pick<Deps, "clock" | "ports">;

/**
 * What other features undo, in the same transaction, when someone leaves a workspace (teams drop
 * them from the workspace's teams). A port: teams build on members (a team holds members only), so
 * members never import them.
 */
export type MemberLeft = (tx: Tx, workspaceId: string, userId: string) => void | Promise<void>;

export const memberLeft = definePort<MemberLeft>("members.memberLeft");

const memberColumns = {
  member: members,
  user: {
    id: users.id,
    name: users.name,
    email: users.email,
    avatarUrl: users.avatarUrl,
    avatarSource: users.avatarSource,
  },
};

async function memberRow(tx: Queryable, workspaceId: string, userId: string) {
  return first(
    await tx
      .select(memberColumns)
      .from(members)
      .innerJoin(users, eq(users.id, members.userId))
      .where(and(eq(members.workspaceId, workspaceId), eq(members.userId, userId)))
      .limit(1),
  );
}

/** One member as SPEC.md's Member, or null when the user is not in the workspace. */
export async function findMember(
  deps: PresentDeps,
  tx: Queryable,
  workspaceId: string,
  userId: string,
): Promise<MemberJson | null> {
  const row = await memberRow(tx, workspaceId, userId);
  if (!row) return null;
  return presentMember(
    row.member,
    row.user,
    (await openTicketsOf(deps.ports, tx, workspaceId, [userId])).get(userId) ?? 0,
    presenceOf(row.member, await awayCutoffOf(deps, tx, workspaceId)),
  );
}

export async function listMembers(
  ctx: RequestContext,
  query: { limit: number; cursor?: string; role?: Role },
  deps: Deps,
): Promise<Page<MemberJson>> {
  const after = decodeCursor(query.cursor, 2);
  const rows = await deps.db
    .select(memberColumns)
    .from(members)
    .innerJoin(users, eq(users.id, members.userId))
    .where(
      and(
        eq(members.workspaceId, ctx.workspaceId),
        query.role ? eq(members.role, query.role) : undefined,
        after
          ? or(
              gt(members.createdAt, String(after[0])),
              and(eq(members.createdAt, String(after[0])), gt(members.userId, String(after[1]))),
            )
          : undefined,
      ),
    )
    .orderBy(asc(members.createdAt), asc(members.userId))
    .limit(query.limit + 1);
  const open = await openTicketsOf(
    deps.ports,
    deps.db,
    ctx.workspaceId,
    rows.map((r) => r.user.id),
  );
  const cutoff = await awayCutoffOf(deps, deps.db, ctx.workspaceId);
  return await pageOf(
    rows,
    query.limit,
    (r) => presentMember(r.member, r.user, open.get(r.user.id) ?? 0, presenceOf(r.member, cutoff)),
    (r) => [r.member.createdAt, r.member.userId],
  );
}

const ownerCount = async (tx: Tx, workspaceId: string): Promise<number> =>
  first(
    await tx
      .select({ n: count() })
      .from(members)
      .where(and(eq(members.workspaceId, workspaceId), eq(members.role, "owner")))
      .limit(1),
  )?.n ?? 0;

/** Owners are made and unmade only by a signed-in owner (an API key acts as an admin). */
function requireOwnerFor(ctx: RequestContext, what: string): void {
  if (ctx.role !== "owner" || ctx.actor.type !== "user") throw forbidden(`Only an owner may ${what}.`);
}

/** Appends `member.updated` for a member (role, picture, availability or cap change). */
export async function publishMemberUpdated(
  deps: PresentDeps,
  tx: Tx,
  workspaceId: string,
  userId: string,
): Promise<MemberJson> {
  const member = await findMember(deps, tx, workspaceId, userId);
  if (!member) throw notFound("Member");
  await appendEvent(tx, memberUpdated, { workspaceId, data: { member }, extraTopics: [userTopic(userId)] });
  return member;
}

/** Sets a member's role inside the caller's transaction; the last owner cannot be demoted. */
export async function setMemberRole(
  tx: Tx,
  ctx: RequestContext,
  userId: string,
  role: Role,
  deps: Deps,
): Promise<MemberJson> {
  const current = await memberRow(tx, ctx.workspaceId, userId);
  if (!current) throw notFound("Member");
  const from = current.member.role;
  if (from === role) return (await findMember(deps, tx, ctx.workspaceId, userId))!;
  if (role === "owner" || from === "owner") requireOwnerFor(ctx, "grant or change the owner role");
  // Demoting takes access away; promoting grants the new role's reach, which the caller must hold.
  if (!mayAlterRole(ctx, from)) throw forbidden(grantDeniedDetail(ctx, from));
  if (roleAtLeast(role, from) && !mayGrantRole(ctx, role)) throw forbidden(grantDeniedDetail(ctx, role));
  if (from === "owner" && (await ownerCount(tx, ctx.workspaceId)) <= 1) {
    throw invalidAt("body.role", "The workspace's last owner cannot be demoted; make someone else owner first.");
  }
  await tx
    .update(members)
    .set({ role })
    .where(and(eq(members.workspaceId, ctx.workspaceId), eq(members.userId, userId)));
  await recordAudit(tx, ctx, {
    action: "member.role_changed",
    entityType: "member",
    entityId: userId,
    data: { from, to: role },
  });
  // A role decides which private teams the member sees: their live sockets re-read it.
  afterCommit(tx, () => signalAccessEnded(deps.db, { kind: "grants", workspaceId: ctx.workspaceId, userId }));
  return await publishMemberUpdated(deps, tx, ctx.workspaceId, userId);
}

export async function updateMemberRole(
  ctx: RequestContext,
  userId: string,
  role: Role,
  deps: Deps,
): Promise<MemberJson> {
  return await transact(deps.db, async (tx) => await setMemberRole(tx, ctx, userId, role, deps));
}

/**
 * Adds a user to a workspace (invitation accepted) in the caller's transaction; emits
 * `member.added`. An existing member keeps their membership and role.
 */
export async function addWorkspaceMember(
  tx: Tx,
  ctx: RequestContext,
  userId: string,
  role: Role,
  deps: Deps,
): Promise<{ member: MemberJson; added: boolean }> {
  const existing = await findMember(deps, tx, ctx.workspaceId, userId);
  if (existing) return { member: existing, added: false };
  await tx
    .insert(members)
    .values({ workspaceId: ctx.workspaceId, userId, role, createdAt: deps.clock.now().toISOString() });
  const member = (await findMember(deps, tx, ctx.workspaceId, userId))!;
  await appendEvent(tx, memberAdded, {
    workspaceId: ctx.workspaceId,
    data: { member },
    extraTopics: [userTopic(userId)],
  });
  await recordAudit(tx, ctx, { action: "member.added", entityType: "member", entityId: userId, data: { role } });
  return { member, added: true };
}

/** Removes a member and their team memberships; their live connections end after commit. */
export async function removeMember(ctx: RequestContext, userId: string, deps: Deps): Promise<void> {
  const leave = deps.ports.get(memberLeft);
  await transact(deps.db, async (tx) => {
    const current = await memberRow(tx, ctx.workspaceId, userId);
    if (!current) throw notFound("Member");
    if (current.member.role === "owner") {
      requireOwnerFor(ctx, "remove an owner");
      if ((await ownerCount(tx, ctx.workspaceId)) <= 1)
        throw invalidAt("path.user_id", "The workspace's last owner cannot be removed.");
    }
    if (!mayAlterRole(ctx, current.member.role)) throw forbidden(grantDeniedDetail(ctx, current.member.role));
    await tx.delete(members).where(and(eq(members.workspaceId, ctx.workspaceId), eq(members.userId, userId)));
    await leave(tx, ctx.workspaceId, userId);
    await appendEvent(tx, memberRemoved, {
      workspaceId: ctx.workspaceId,
      data: { user_id: userId },
      extraTopics: [userTopic(userId)],
    });
    await recordAudit(tx, ctx, {
      action: "member.removed",
      entityType: "member",
      entityId: userId,
      data: { role: current.member.role, email: current.user.email },
    });
  });
  signalAccessEnded(deps.db, { kind: "membership", userId, workspaceId: ctx.workspaceId });
}

/** Which of `userIds` are members of the workspace. */
export async function membersAmong(tx: Queryable, workspaceId: string, userIds: string[]): Promise<Set<string>> {
  if (!userIds.length) return new Set();
  const rows = await tx
    .select({ id: members.userId })
    .from(members)
    .where(and(eq(members.workspaceId, workspaceId), inArray(members.userId, userIds)));
  return new Set(rows.map((r) => r.id));
}

/** True when the user is a member of the workspace. */
export async function isMember(tx: Queryable, workspaceId: string, userId: string): Promise<boolean> {
  return !!first(
    await tx
      .select({ userId: members.userId })
      .from(members)
      .where(and(eq(members.workspaceId, workspaceId), eq(members.userId, userId)))
      .limit(1),
  );
}

/** The member's role, or null when the user is not in the workspace. */
export async function memberRoleOf(tx: Queryable, workspaceId: string, userId: string): Promise<Role | null> {
  return (
    first(
      await tx
        .select({ role: members.role })
        .from(members)
        .where(and(eq(members.workspaceId, workspaceId), eq(members.userId, userId)))
        .limit(1),
    )?.role ?? null
  );
}

/** True when someone with this (account) email is a member of the workspace. */
export async function isMemberEmail(tx: Queryable, workspaceId: string, email: string): Promise<boolean> {
  return !!first(
    await tx
      .select({ id: members.userId })
      .from(members)
      .innerJoin(users, eq(users.id, members.userId))
      .where(and(eq(members.workspaceId, workspaceId), eq(users.email, email)))
      .limit(1),
  );
}

/** The owners and admins of a workspace: who receives workspace notices (AI key failures, caps). */
export async function adminIdsOfWorkspace(tx: Queryable, workspaceId: string): Promise<string[]> {
  return (
    await tx
      .select({ userId: members.userId })
      .from(members)
      .where(and(eq(members.workspaceId, workspaceId), inArray(members.role, ["owner", "admin"])))
  ).map((r) => r.userId);
}

/** Members of a workspace, and seats among them (owners, admins and agents; viewers are free). */
export async function memberCountsOf(tx: Queryable, workspaceId: string): Promise<{ members: number; seats: number }> {
  const rows = await tx.select({ role: members.role }).from(members).where(eq(members.workspaceId, workspaceId));
  return { members: rows.length, seats: rows.filter((r) => r.role !== "viewer").length };
}

/** Every member's id, name and email: what a plain-text `@Name` or `@email` in a note is read against. */
export async function memberNamesOf(
  tx: Queryable,
  workspaceId: string,
): Promise<Array<{ id: string; name: string; email: string }>> {
  return await tx
    .select({ id: users.id, name: users.name, email: users.email })
    .from(members)
    .innerJoin(users, eq(users.id, members.userId))
    .where(eq(members.workspaceId, workspaceId));
}

/** User ids of every member of the workspace. */
export async function memberIdsOfWorkspace(tx: Queryable, workspaceId: string): Promise<string[]> {
  return (await tx.select({ userId: members.userId }).from(members).where(eq(members.workspaceId, workspaceId))).map(
    (r) => r.userId,
  );
}

/** The first membership of a new workspace: its creator as owner (no event: the workspace's own covers it). */
export async function insertOwnerMembership(tx: Tx, workspaceId: string, userId: string, now: string): Promise<void> {
  await tx.insert(members).values({ workspaceId, userId, role: "owner", createdAt: now });
}

/**
 * Sets or clears a person's own picture and appends `member.updated` in each workspace they belong
 * to (the picture shows wherever they are a member). Answers those workspaces' ids.
 */
export async function setUserPicture(
  deps: PresentDeps,
  tx: Tx,
  userId: string,
  url: string | null,
  now: string,
  /** `oauth`: the picture a sign-in provider gave (never replaces one the person chose). */
  source: "upload" | "oauth" = "upload",
): Promise<string[]> {
  await setUserAvatar(tx, userId, url, source, now);
  const workspaceIds = (
    await tx.select({ id: members.workspaceId }).from(members).where(eq(members.userId, userId))
  ).map((r) => r.id);
  for (const workspaceId of workspaceIds) await publishMemberUpdated(deps, tx, workspaceId, userId);
  return workspaceIds;
}

/** What assignment weighs of a member: role, availability, cap, last heartbeat, and when they joined. */
export type AssignableMember = {
  userId: string;
  role: Role;
  availability: MemberRow["availability"];
  maxOpenTickets: number | null;
  lastSeenAt: string | null;
  createdAt: string;
};

/** Every member of the workspace but viewers (who are never assigned), by user id. */
export async function assignableMembers(tx: Queryable, workspaceId: string): Promise<AssignableMember[]> {
  return await tx
    .select({
      userId: members.userId,
      role: members.role,
      availability: members.availability,
      maxOpenTickets: members.maxOpenTickets,
      lastSeenAt: members.lastSeenAt,
      createdAt: members.createdAt,
    })
    .from(members)
    .where(and(eq(members.workspaceId, workspaceId), ne(members.role, "viewer")))
    .orderBy(asc(members.userId));
}

/**
 * Sets a member's availability and/or assignment cap (null clears it) in the caller's transaction
 * and appends `member.updated` when something changed. The caller checks who may do it; a cap
 * for a viewer is refused here. Answers the member before and after, or null when not a member.
 */
export async function setMemberAvailability(
  deps: PresentDeps,
  tx: Tx,
  workspaceId: string,
  userId: string,
  patch: { availability?: MemberRow["availability"]; maxOpenTickets?: number | null },
): Promise<{ before: MemberJson; after: MemberJson } | null> {
  const before = await findMember(deps, tx, workspaceId, userId);
  if (!before) return null;
  if (patch.maxOpenTickets != null && before.role === "viewer")
    throw invalidAt("body.max_open_tickets", "Viewers are never assigned tickets, so they take no cap.");
  const set: Partial<MemberRow> = {};
  if (patch.availability !== undefined && patch.availability !== before.availability)
    set.availability = patch.availability;
  if (patch.maxOpenTickets !== undefined && patch.maxOpenTickets !== before.max_open_tickets)
    set.maxOpenTickets = patch.maxOpenTickets;
  if (!Object.keys(set).length) return { before, after: before };
  await tx
    .update(members)
    .set(set)
    .where(and(eq(members.workspaceId, workspaceId), eq(members.userId, userId)));
  return { before, after: await publishMemberUpdated(deps, tx, workspaceId, userId) };
}

/**
 * Records a heartbeat (`last_seen_at`). When it changes the member's presence (back from
 * auto-away), `member.updated` follows so others see them online again; otherwise no event.
 */
export async function touchMemberSeen(
  deps: PresentDeps,
  tx: Tx,
  workspaceId: string,
  userId: string,
  now: string,
): Promise<MemberJson | null> {
  const row = await memberRow(tx, workspaceId, userId);
  if (!row) return null;
  const cutoff = await awayCutoffOf(deps, tx, workspaceId);
  const was = presenceOf(row.member, cutoff);
  await tx
    .update(members)
    .set({ lastSeenAt: now })
    .where(and(eq(members.workspaceId, workspaceId), eq(members.userId, userId)));
  if (presenceOf({ ...row.member, lastSeenAt: now }, cutoff) !== was)
    return await publishMemberUpdated(deps, tx, workspaceId, userId);
  return null;
}

/**
 * Online members whose last heartbeat falls in [from, to): those whom auto-away turned away as its
 * cutoff moved from `from` to `to` (the assignment feature's job tells everyone with member.updated).
 */
export async function membersLastSeenBetween(
  tx: Queryable,
  workspaceId: string,
  from: string,
  to: string,
): Promise<string[]> {
  return (
    await tx
      .select({ userId: members.userId })
      .from(members)
      .where(
        and(
          eq(members.workspaceId, workspaceId),
          eq(members.availability, "online"),
          gte(members.lastSeenAt, from),
          lt(members.lastSeenAt, to),
        ),
      )
  ).map((r) => r.userId);
}
