import { privateTeamsOfMember } from "../auth/auth.ports";
import { onEvent } from "../events/bus";
import { provide } from "../lib/ports";
import { memberLeft } from "../members/members.public";
import { defineModule } from "../module";
import { teamEvents } from "./teams.events";
import { leaveWorkspaceTeams } from "./teams.service";
import { privateTeamsLookup } from "./teams.public";
import { teamsRoutes } from "./teams.routes";

export const teamsModule = defineModule({
  name: "teams",
  events: teamEvents,
  routes: (deps) => [teamsRoutes(deps)],
  provides: [provide(memberLeft, leaveWorkspaceTeams), provide(privateTeamsOfMember, privateTeamsLookup)],
  // A change here may change someone's role or private teams, which the credential cache holds.
  inTransaction: (deps) => void onEvent(deps.db, teamEvents, (tx) => deps.credentials.membershipsChanged(tx)),
});
