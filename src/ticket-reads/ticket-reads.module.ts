import { defineModule } from "../module";
import { ticketReadsRoutes } from "./ticket-reads.routes";

/** The inbox's per-person read/unread state (src/ticket-reads). */
export const ticketReadsModule = defineModule({
  name: "ticket-reads",
  routes: (deps) => [ticketReadsRoutes(deps)],
});
