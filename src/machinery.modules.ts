import {
  keyLookups,
  membershipLookups,
  privateTeamsOfMember,
  sessionsById,
  visitorCaller,
  visitorSessions,
} from "./auth/auth.ports";
import { eventHidden, reservedEvents } from "./events/reserved.events";
import { pruneEventsJob } from "./events/events.jobs";
import { eventsRoutes } from "./events/events.routes";
import { eventWorkspaceCheck } from "./events/seq-counter";
import { pruneIdempotencyKeysJob } from "./http/idempotency.jobs";
import { optimizeDatabaseJob, pruneJobsJob } from "./jobs/jobs.maintenance";
import { defineModule } from "./module";
import {
  liveKeyScopesLookup,
  storedSeqs,
  ticketLookups,
  userNameLookup,
  visitorViewOf,
} from "./realtime/realtime.ports";
import { realtimeRoutes } from "./realtime/realtime.routes";

/**
 * Machinery never imports `src/module.ts`, so the routes and jobs that live in machinery folders
 * are declared as modules here, for the registry to list like any feature.
 */
// The credential machinery (src/auth) has no routes or jobs of its own: signing in is src/identity's.
export const authModule = defineModule({
  name: "auth",
  ports: [keyLookups, membershipLookups, privateTeamsOfMember, sessionsById, visitorSessions, visitorCaller],
});

/** The replay route, and the event types of no feature: the `event.hidden` stand-in and those SPEC.md reserves. */
export const eventsModule = defineModule({
  name: "events",
  routes: (deps) => [eventsRoutes(deps)],
  events: [eventHidden, ...reservedEvents],
  ports: [eventWorkspaceCheck],
});

export const realtimeModule = defineModule({
  name: "realtime",
  routes: (deps) => [realtimeRoutes(deps)],
  ports: [liveKeyScopesLookup, storedSeqs, ticketLookups, userNameLookup, visitorViewOf],
});

/** Housekeeping of the machinery's own tables. */
export const maintenanceModule = defineModule({
  name: "maintenance",
  jobs: [pruneEventsJob, pruneIdempotencyKeysJob, pruneJobsJob, optimizeDatabaseJob],
});
