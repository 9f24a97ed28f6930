import { defineModule } from "../module";
import { ticketEvents } from "./tickets.events";
import { registerMemberOpenTickets, registerUnassignOnMemberRemoval } from "./tickets.hooks";
import { wakeSnoozedJob } from "./tickets.jobs";
import { ticketsExportRoutes } from "./tickets.export";
import { ticketsRoutes } from "./tickets.routes";
import { messagesRoutes } from "./messages.routes";
import { followersRoutes } from "./followers.routes";

export const ticketsModule = defineModule({
  name: "tickets",
  events: ticketEvents,
  routes: (deps) => [ticketsExportRoutes(deps), ticketsRoutes(deps), messagesRoutes(deps), followersRoutes(deps)],
  jobs: [wakeSnoozedJob],
  inTransaction(deps) {
    // Stays in the member's removal transaction (not a consumer): the DELETE answers only once the
    // member's tickets are unassigned, which clients and tests rely on.
    registerUnassignOnMemberRemoval(deps);
    // Not a hook: hands members the count of open tickets, which only tickets may query.
    registerMemberOpenTickets(deps);
  },
});
