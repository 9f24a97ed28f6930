/** What other features may use of teams: whether a team exists, is private, or is hidden from a caller. */
export { privateTeamOfWorkspace, privateTeamsOutside, teamOfWorkspace } from "./teams.lookup";
