import { authRoutes } from "./auth/auth.routes";
import { eventHidden, reservedEvents } from "./events/reserved.events";
import { instanceRoutes } from "./auth/instance.routes";
import { pruneEventsJob } from "./events/events.jobs";
import { eventsRoutes } from "./events/events.routes";
import { pruneIdempotencyKeysJob } from "./http/idempotency.jobs";
import { optimizeDatabaseJob, pruneJobsJob } from "./jobs/jobs.maintenance";
import { defineModule } from "./module";
import { realtimeRoutes } from "./realtime/realtime.routes";

/**
 * Machinery never imports `src/module.ts`, so the routes and jobs that live in machinery folders
 * are declared as modules here, for the registry to list like any feature.
 */
export const authModule = defineModule({
  name: "auth",
  routes: (deps) => [authRoutes(deps), instanceRoutes(deps)],
});

/** The replay route, and the event types of no feature: the `event.hidden` stand-in and those SPEC.md reserves. */
export const eventsModule = defineModule({
  name: "events",
  routes: (deps) => [eventsRoutes(deps)],
  events: [eventHidden, ...reservedEvents],
});

export const realtimeModule = defineModule({ name: "realtime", routes: (deps) => [realtimeRoutes(deps)] });

/** Housekeeping of the machinery's own tables. */
export const maintenanceModule = defineModule({
  name: "maintenance",
  jobs: [pruneEventsJob, pruneIdempotencyKeysJob, pruneJobsJob, optimizeDatabaseJob],
});
