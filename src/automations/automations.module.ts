import { tagRenamedInAutomations } from "../labels/labels.public";
import { provide } from "../lib/ports";
import { defineModule } from "../module";
import { automationAi } from "./automations.ai";
import { automationsEngine } from "./automations.engine";
import { automationEvents } from "./automations.events";
import { pruneAutomationRunsJob } from "./automations.jobs";
import { automationsRoutes } from "./automations.routes";
import { renameTagInAutomations } from "./automations.service";

const engine = automationsEngine();

/**
 * Automations: CRUD under /v1/automations and the engine (a consumer of ticket and message events).
 * Through its `automations.ai` port the AI feature answers sentiment and ai_decide conditions
 * (`aiJudge`) and runs the ai_triage action (`aiTriage`). Without them those conditions never hold
 * and ai_triage is a recorded no-op.
 */
export const automationsModule = defineModule({
  name: "automations",
  events: automationEvents,
  routes: (deps) => [automationsRoutes(deps)],
  consumers: [engine.consumer],
  jobs: [...engine.jobs, pruneAutomationRunsJob],
  ports: [automationAi],
  provides: [provide(tagRenamedInAutomations, renameTagInAutomations)],
});
