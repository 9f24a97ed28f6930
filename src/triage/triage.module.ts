import { triageSettings } from "../ai/ai.public";
import { provide } from "../lib/ports";
import { defineModule } from "../module";
import { triageSettingsForAi } from "./triage.ai";
import { triageRoutes } from "./triage.routes";

/** Triage settings (`/v1/triage`); the engine that reads them comes with the AI features. */
export const triageModule = defineModule({
  name: "triage",
  routes: (deps) => [triageRoutes(deps)],
  provides: [provide(triageSettings, triageSettingsForAi)],
});
