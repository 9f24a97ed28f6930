import { defineModule } from "../module";
import type { AutomationsOptions } from "./automations.ai";
import { automationsEngine } from "./automations.engine";
import { automationEvents } from "./automations.events";
import { pruneAutomationRunsJob } from "./automations.jobs";
import { automationsRoutes } from "./automations.routes";

/**
 * Automations: CRUD under /v1/automations and the engine (a consumer of ticket and message events).
 * `aiJudge` answers sentiment and ai_decide conditions and `aiTriage` runs the ai_triage action;
 * the AI feature supplies them through the registry. Without them those conditions never hold
 * and ai_triage is a recorded no-op.
 */
export function automationsModule(options: AutomationsOptions = {}) {
  const engine = automationsEngine(options);
  return defineModule({
    name: "automations",
    events: automationEvents,
    routes: (deps) => [automationsRoutes(deps)],
    consumers: [engine.consumer],
    jobs: [...engine.jobs, pruneAutomationRunsJob],
  });
}
