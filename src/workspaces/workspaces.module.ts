import { defineModule } from "../module";
import { purgeWorkspaceJob } from "./workspaces.jobs";
import { workspacesRoutes } from "./workspaces.routes";

export const workspacesModule = defineModule({
  name: "workspaces",
  routes: (deps) => [workspacesRoutes(deps)],
  jobs: [purgeWorkspaceJob],
});
