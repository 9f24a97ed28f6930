import { defineConsumer } from "../events/consumers";
import { liveSlaTicket, ticketCreated, ticketDeleted, ticketUpdated } from "../tickets/tickets.public";
import { forgetTicket, trackTicket } from "./sla.track";

/** The ticket changes that move an SLA clock: the policy follows priority; replies and status meet or restart deadlines. */
const MOVES_CLOCK = new Set(["priority", "status", "first_responded_at"]);

/**
 * Keeps each ticket's SLA clock: on creation, and on a change of priority, status (solve, reopen)
 * or the first agent reply. Reads the ticket as stored now (a later change is handled by its own
 * event), so the clock always follows the ticket's current state.
 */
export const slaTracker = defineConsumer({
  name: "sla.tracker",
  events: [ticketCreated, ticketUpdated, ticketDeleted],
  async handle(tx, event) {
    if (event.type === "ticket.deleted") return await forgetTicket(tx, event.data.ticket_id);
    if (event.type === "ticket.updated" && !event.data.changes.some((change) => MOVES_CLOCK.has(change))) return;
    const presented = event.data.ticket;
    const ticket = await liveSlaTicket(tx, event.workspace_id, presented.id);
    if (!ticket) await forgetTicket(tx, presented.id);
    // When the change happened on the desk's clock: the presented ticket's updated_at.
    else await trackTicket(tx, ticket, presented.updated_at);
  },
});
