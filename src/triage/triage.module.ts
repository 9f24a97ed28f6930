import { defineModule } from "../module";
import { triageRoutes } from "./triage.routes";

/** Triage settings (`/v1/triage`); the engine that reads them comes with the AI features. */
export const triageModule = defineModule({
  name: "triage",
  routes: (deps) => [triageRoutes(deps)],
});
