import type { Deps } from "../deps";
import { defineConsumer } from "../events/consumers";
import { autoAssignTicket } from "./assignment.service";

type TicketData = { ticket: { id: string; assignee: unknown; spam: boolean } };

/** New unassigned tickets are assigned by the workspace's rules, after the ticket's own commit. */
export const assignOnCreate = defineConsumer<Deps>({
  name: "assignment.on-ticket-created",
  types: ["ticket.created"],
  handle(_tx, event, { deps }) {
    const { ticket } = event.data as TicketData;
    if (ticket.assignee || ticket.spam) return;
    autoAssignTicket(deps, event.workspace_id, ticket.id);
  },
});
