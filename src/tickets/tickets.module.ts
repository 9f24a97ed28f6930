import { provide } from "../lib/ports";
import { ticketLookups } from "../realtime/realtime.ports";
import { contactTicketCounts, moveContactRecords } from "../contacts/contacts.public";
import { openTicketCounter } from "../members/members.public";
import { defineModule } from "../module";
import { liveTicketCountsOfContacts } from "./tickets.contact-counts";
import { moveContactTickets } from "./tickets.contact-merge";
import { chatContactOfTicket } from "./tickets.chat";
import { ticketEvents } from "./tickets.events";
import { registerUnassignOnMemberRemoval } from "./tickets.hooks";
import { wakeSnoozedJob } from "./tickets.jobs";
import { countMemberOpenTickets } from "./tickets.open-counts";
import { privateTeamOfLiveTicket } from "./tickets.presence";
import { ticketNumberCounter } from "./tickets.ports";
import { ticketsExportRoutes } from "./tickets.export";
import { ticketsRoutes } from "./tickets.routes";
import { messagesRoutes } from "./messages.routes";
import { followersRoutes } from "./followers.routes";

export const ticketsModule = defineModule({
  name: "tickets",
  events: ticketEvents,
  routes: (deps) => [ticketsExportRoutes(deps), ticketsRoutes(deps), messagesRoutes(deps), followersRoutes(deps)],
  jobs: [wakeSnoozedJob],
  ports: [ticketNumberCounter],
  inTransaction(deps) {
    // Stays in the member's removal transaction (not a consumer): the DELETE answers only once the
    // member's tickets are unassigned, which clients and tests rely on.
    registerUnassignOnMemberRemoval(deps);
  },
  provides: [
    provide(openTicketCounter, countMemberOpenTickets),
    // A contact merged into another takes its tickets along, in the merge's transaction.
    provide(moveContactRecords, moveContactTickets),
    provide(contactTicketCounts, liveTicketCountsOfContacts),
    provide(ticketLookups, (db) => ({
      chatContactOf: async (workspaceId, ticketId) => await chatContactOfTicket(db, workspaceId, ticketId),
      privateTeamOfTicket: async (workspaceId, ticketId) => await privateTeamOfLiveTicket(db, workspaceId, ticketId),
    })),
  ],
});
