import type { Db } from "../db/database";
import { teamStatements } from "./teams.statements";

/**
 * The private teams of a workspace a person is in (their tickets are visible to them): asked by the
 * credential resolver and the realtime gateway.
 */
export function privateTeamsLookup(db: Db): (workspaceId: string, userId: string) => string[] | Promise<string[]> {
  return teamStatements(db).privateTeamsOfMember;
}

/** What other features may use of teams: which teams exist, who is hidden from whom, and leaving them. */
export { leaveWorkspaceTeams, memberIdsOf, teamsAmong } from "./teams.service";
export type { TeamJson } from "./teams.present";
export { privateTeamOfWorkspace, privateTeamsOutside, teamOfWorkspace, teamsOfWorkspace } from "./teams.lookup";
