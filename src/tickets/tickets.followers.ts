import { and, eq } from "drizzle-orm";
import { actorUserId, type RequestContext } from "../auth/context";
import type { Db, Queryable, Tx } from "../db/database";
import { transact } from "../db/tx";
import type { Clock } from "../lib/clock";
import { invalidAt, notFound } from "../lib/errors";
import { memberIdsOf } from "../teams/teams.public";
import { memberRoleOf } from "../members/members.public";
import { ticketFollowers } from "./followers.table";
import { followerIdsOf } from "./followers.read";
import { findVisibleTicket, privateTeamOf, ticketOfWorkspace } from "./tickets.repo";
import { emitTicketUpdated } from "./tickets.timeline";
import type { TicketRow } from "./tickets.table";

type Deps = { db: Db; clock: Clock };

/** SPEC-style bound: a ticket's followers are a short list, not a broadcast. */
export const MAX_FOLLOWERS = 50;

/** Whether a member may see the ticket: any member, unless its team is private (its members, admins and owners). */
async function maySee(db: Queryable, ticket: TicketRow, userId: string): Promise<boolean> {
  const role = await memberRoleOf(db, ticket.workspaceId, userId);
  if (!role) return false;
  const privateTeamId = await privateTeamOf(db, ticket.workspaceId, ticket.teamId);
  if (!privateTeamId || role === "admin" || role === "owner") return true;
  return (await memberIdsOf(db, [privateTeamId])).get(privateTeamId)?.includes(userId) ?? false;
}

/** `me` is the caller (a key's creator). */
const resolveUser = (ctx: RequestContext, userId: string) => (userId === "me" ? actorUserId(ctx) : userId);

/**
 * Adds a follower (the caller or a teammate who may see the ticket). Following twice changes
 * nothing and emits nothing; a change emits `ticket.updated { changes: ["followers"] }`.
 */
export async function followTicket(ctx: RequestContext, ref: string, userIdOrMe: string, deps: Deps): Promise<void> {
  await transact(deps.db, async (tx) => {
    const ticket = await findVisibleTicket(tx, ctx, ref, { includeMerged: false });
    const userId = resolveUser(ctx, userIdOrMe);
    if (!userId || !(await memberRoleOf(tx, ticket.workspaceId, userId))) throw notFound("User");
    if (!(await maySee(tx, ticket, userId)))
      throw invalidAt("path.user_id", "this member cannot see the ticket (it belongs to a private team)");
    const current = (await followerIdsOf(tx, [ticket.id])).get(ticket.id) ?? [];
    if (current.includes(userId)) return;
    if (current.length >= MAX_FOLLOWERS)
      throw invalidAt("path.user_id", `a ticket has at most ${MAX_FOLLOWERS} followers`);
    await tx.insert(ticketFollowers).values({
      ticketId: ticket.id,
      userId,
      workspaceId: ticket.workspaceId,
      createdAt: deps.clock.now().toISOString(),
    });
    await emitTicketUpdated(tx, ticket, ["followers"]);
  });
}

/**
 * Adds followers in the caller's transaction (a reaction such as following on a mention): those
 * who may see the ticket and do not follow it yet, while the ticket has room; one ticket.updated
 * when any was added. A ticket gone, merged or deleted takes nobody.
 */
export async function addFollowers(
  tx: Tx,
  workspaceId: string,
  ticketId: string,
  userIds: string[],
  now: string,
): Promise<number> {
  const ticket = await ticketOfWorkspace(tx, workspaceId, ticketId);
  if (!ticket || ticket.deletedAt || ticket.mergedIntoId) return 0;
  const current = (await followerIdsOf(tx, [ticket.id])).get(ticket.id) ?? [];
  const room = Math.max(0, MAX_FOLLOWERS - current.length);
  const added: string[] = [];
  for (const id of new Set(userIds)) {
    if (added.length >= room) break;
    if (!current.includes(id) && (await maySee(tx, ticket, id))) added.push(id);
  }
  if (added.length === 0) return 0;
  await tx
    .insert(ticketFollowers)
    .values(added.map((userId) => ({ ticketId: ticket.id, userId, workspaceId, createdAt: now })));
  await emitTicketUpdated(tx, ticket, ["followers"]);
  return added.length;
}

/** Removes a follower; one who was not following changes nothing (still 204). */
export async function unfollowTicket(ctx: RequestContext, ref: string, userIdOrMe: string, deps: Deps): Promise<void> {
  await transact(deps.db, async (tx) => {
    const ticket = await findVisibleTicket(tx, ctx, ref, { includeMerged: false });
    const userId = resolveUser(ctx, userIdOrMe);
    if (!userId) throw notFound("User");
    const removed = await tx
      .delete(ticketFollowers)
      .where(and(eq(ticketFollowers.ticketId, ticket.id), eq(ticketFollowers.userId, userId)))
      .returning({ userId: ticketFollowers.userId });
    if (removed.length > 0) await emitTicketUpdated(tx, ticket, ["followers"]);
  });
}
