import type { Tx } from "../db/database";
import { memberRoleOf } from "../members/members.public";
import { memberIdsOf, privateTeamOfWorkspace } from "../teams/teams.public";
import { followerIdsOf, ticketOfWorkspace } from "../tickets/tickets.public";

/**
 * The most people one event tells about one ticket. Each is a row, a personal event and perhaps a
 * mail job written in the event's own transaction; a ticket has at most 50 followers today, so this
 * holds the assignee, every follower and a few admins, and still bounds the work if that cap grows.
 */
export const MAX_RECIPIENTS = 60;

/** Whether a member may see a ticket: any member, unless it belongs to a private team (its members and admins). */
export async function maySee(
  tx: Tx,
  workspaceId: string,
  userId: string,
  privateTeamId: string | null,
): Promise<boolean> {
  const role = await memberRoleOf(tx, workspaceId, userId);
  if (!role) return false;
  if (!privateTeamId || role === "admin" || role === "owner") return true;
  return (await memberIdsOf(tx, [privateTeamId])).get(privateTeamId)?.includes(userId) ?? false;
}

/**
 * `told` (the people a feature tells itself: the assignee, or the admins of an unassigned ticket)
 * and then the ticket's followers who may see it, each once, at most MAX_RECIPIENTS in all.
 * Followers get what the assignee gets: a feature sending a ticket notice adds them through this.
 */
export async function withFollowers(
  tx: Tx,
  workspaceId: string,
  ticketId: string,
  told: readonly string[],
): Promise<string[]> {
  const people = new Set(told);
  const ticket = await ticketOfWorkspace(tx, workspaceId, ticketId);
  if (ticket && !ticket.deletedAt) {
    const privateTeamId = ticket.teamId
      ? ((await privateTeamOfWorkspace(tx, workspaceId, ticket.teamId)) ?? null)
      : null;
    for (const userId of (await followerIdsOf(tx, [ticket.id])).get(ticket.id) ?? []) {
      if (people.size >= MAX_RECIPIENTS) break;
      if (!people.has(userId) && (await maySee(tx, workspaceId, userId, privateTeamId))) people.add(userId);
    }
  }
  return [...people].slice(0, MAX_RECIPIENTS);
}
