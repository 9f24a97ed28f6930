import { defineModule } from "../module";
import { contactEvents } from "./contacts.events";
import { moveContactRecords } from "./contacts.merge";
import { recordsExportRoutes } from "./contacts.export";
import { contactsRoutes } from "./contacts.routes";
import { contactTicketCounts } from "./contacts.ticket-counts";

/** `moveContactRecords`: what features above keep by contact id (tickets) moves in the merge's transaction. */
export const contactsModule = defineModule({
  name: "contacts",
  events: contactEvents,
  routes: (deps) => [recordsExportRoutes(deps), contactsRoutes(deps)],
  ports: [moveContactRecords, contactTicketCounts],
});
