import { defineModule } from "../module";
import { workspaceEvents } from "./workspaces.events";
import { purgeWorkspaceJob } from "./workspaces.jobs";
import { workspacesRoutes } from "./workspaces.routes";

export const workspacesModule = defineModule({
  name: "workspaces",
  events: workspaceEvents,
  routes: (deps) => [workspacesRoutes(deps)],
  jobs: [purgeWorkspaceJob],
});
