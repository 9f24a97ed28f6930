import type { Db } from "../db/database";

/**
 * The private teams of a workspace a person is in (their tickets are visible to them): asked by the
 * credential resolver and the realtime gateway.
 */
export function privateTeamsLookup(db: Db): (workspaceId: string, userId: string) => string[] {
  const privateTeams = db.$client.query<{ team_id: string }, [string, string]>(
    "SELECT tm.team_id FROM team_members tm JOIN teams t ON t.id = tm.team_id WHERE t.workspace_id = ? AND tm.user_id = ? AND t.private = 1",
  );
  return (workspaceId, userId) => privateTeams.all(workspaceId, userId).map((r) => r.team_id);
}

/** What other features may use of teams: which teams exist, who is hidden from whom, and leaving them. */
export { leaveWorkspaceTeams, memberIdsOf, teamsAmong } from "./teams.service";
export type { TeamJson } from "./teams.present";
export { privateTeamOfWorkspace, privateTeamsOutside, teamOfWorkspace, teamsOfWorkspace } from "./teams.lookup";
