import type { Queryable } from "../db/database";
import { teamOfWorkspace } from "../teams/teams.public";
import { ticketReadStatements } from "./tickets.statements";

/**
 * The private team of a live ticket of the workspace (null when it has none or its team is public),
 * or undefined when the workspace has no such live ticket: the realtime gateway shows who is on a
 * ticket only to those who may see it.
 */
export async function privateTeamOfLiveTicket(
  db: Queryable,
  workspaceId: string,
  ticketId: string,
): Promise<string | null | undefined> {
  const row = await ticketReadStatements(db).undeletedTeam(workspaceId, ticketId);
  if (!row) return undefined;
  if (!row.teamId) return null;
  return (await teamOfWorkspace(db, workspaceId, row.teamId))?.private ? row.teamId : null;
}
