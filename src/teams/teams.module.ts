import { defineModule } from "../module";
import { teamsRoutes } from "./teams.routes";

export const teamsModule = defineModule({ name: "teams", routes: (deps) => [teamsRoutes(deps)] });
