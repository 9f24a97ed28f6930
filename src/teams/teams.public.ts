/** What other features may use of teams: which teams exist, who is hidden from whom, and leaving them. */
export { leaveWorkspaceTeams, memberIdsOf, privateTeamsOutside, teamsAmong } from "./teams.service";
export type { TeamJson } from "./teams.present";
