import { defineModule } from "../module";
import { teamEvents } from "./teams.events";
import { teamsRoutes } from "./teams.routes";

export const teamsModule = defineModule({ name: "teams", events: teamEvents, routes: (deps) => [teamsRoutes(deps)] });
