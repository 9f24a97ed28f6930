import { defineModule } from "../module";
import { importEvents } from "./imports.events";
import { importRunJob } from "./imports.jobs";
import { importsRoutes } from "./imports.routes";

export const importsModule = defineModule({
  name: "imports",
  events: importEvents,
  jobs: [importRunJob],
  routes: (deps) => [importsRoutes(deps)],
});
