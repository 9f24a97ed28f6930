import { registerAwayCutoff } from "../members/members.public";
import { defineModule } from "../module";
import { assignOnCreate, assignOnReply, type AssignsAfterTriage } from "./assignment.consumers";
import { autoAwayJob } from "./assignment.jobs";
import { assignmentRoutes } from "./assignment.routes";
import { awayCutoffAt } from "./assignment.service";

/** `afterTriage`: whether a triage that assigns after itself runs first (new tickets then wait for it). */
export const assignmentModule = (afterTriage: AssignsAfterTriage = () => false) =>
  defineModule({
    name: "assignment",
    routes: (deps) => [assignmentRoutes(deps)],
    consumers: [assignOnCreate(afterTriage), assignOnReply],
    jobs: [autoAwayJob],
    inTransaction(deps) {
      // Not a hook: hands members the auto-away rule, which only assignment stores.
      registerAwayCutoff(deps.db, (db, workspaceId) => awayCutoffAt(db, workspaceId, deps.clock.now()));
    },
  });
