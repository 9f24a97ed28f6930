import { slaClocks } from "../assistant/assistant.public";
import { provide } from "../lib/ports";
import { defineModule } from "../module";
import { businessHoursRoutes } from "./business-hours.routes";
import { openSlaClocksOf } from "./sla.clocks";
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
  // The assistant's SLA tips read the clocks.
  provides: [provide(slaClocks, openSlaClocksOf)],
});
