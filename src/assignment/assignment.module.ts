import { assignAfterTriage, assignsAfterTriage, triageSettings } from "../ai/ai.public";
import { provide } from "../lib/ports";
import { awayCutoff } from "../members/members.public";
import { defineModule } from "../module";
import { assignOnCreate, assignOnReply } from "./assignment.consumers";
import { autoAwayJob } from "./assignment.jobs";
import { assignmentRoutes } from "./assignment.routes";
import { autoAssignTicket, awayCutoffAt } from "./assignment.service";

export const assignmentModule = defineModule({
  name: "assignment",
  routes: (deps) => [assignmentRoutes(deps)],
  // Assignment on creation waits when an automatic triage will assign after itself.
  consumers: [
    assignOnCreate(
      async (deps, workspaceId) =>
        await assignsAfterTriage({ readSettings: deps.ports.get(triageSettings), engine: null })(deps, workspaceId),
    ),
    assignOnReply,
  ],
  jobs: [autoAwayJob],
  provides: [
    // Members show presence by the auto-away rule, which only assignment stores.
    provide(awayCutoff, awayCutoffAt),
    // After an automatic triage, the assignment rules pick the assignee when `assign_after_triage` is on.
    provide(assignAfterTriage, async (deps, workspaceId, ticketId) => {
      await autoAssignTicket(deps, workspaceId, ticketId);
    }),
  ],
});
