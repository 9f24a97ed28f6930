import { onEvent } from "../events/bus";
import { defineModule } from "../module";
import { memberEvents } from "./members.events";
import { awayCutoff, memberLeft, openTicketCounter } from "./members.public";
import { membersRoutes } from "./members.routes";

/** Its ports: what features above keep per member (team seats, open tickets, the auto-away rule). */
export const membersModule = defineModule({
  name: "members",
  events: memberEvents,
  routes: (deps) => [membersRoutes(deps)],
  ports: [memberLeft, openTicketCounter, awayCutoff],
  // A change here may change someone's role or private teams, which the credential cache holds.
  inTransaction: (deps) => void onEvent(deps.db, memberEvents, (tx) => deps.credentials.membershipsChanged(tx)),
});
