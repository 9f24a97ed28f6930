import { registerAwayCutoff } from "../members/members.public";
import { defineModule } from "../module";
import { assignOnCreate } from "./assignment.consumers";
import { autoAwayJob } from "./assignment.jobs";
import { assignmentRoutes } from "./assignment.routes";
import { awayCutoffAt } from "./assignment.service";

export const assignmentModule = defineModule({
  name: "assignment",
  routes: (deps) => [assignmentRoutes(deps)],
  consumers: [assignOnCreate],
  jobs: [autoAwayJob],
  inTransaction(deps) {
    // Not a hook: hands members the auto-away rule, which only assignment stores.
    registerAwayCutoff(deps.db, (db, workspaceId) => awayCutoffAt(db, workspaceId, deps.clock.now()));
  },
});
