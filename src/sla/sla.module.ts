import { defineModule } from "../module";
import { businessHoursRoutes } from "./business-hours.routes";
import { slaTracker } from "./sla.consumers";
import { slaPolicyEvents } from "./sla.events";
import { recomputeSlaJob, slaBreachJob } from "./sla.jobs";
import { slaRoutes } from "./sla.routes";

export const slaModule = defineModule({
  name: "sla",
  events: slaPolicyEvents,
  routes: (deps) => [slaRoutes(deps), businessHoursRoutes(deps)],
  jobs: [slaBreachJob, recomputeSlaJob],
  consumers: [slaTracker],
});
