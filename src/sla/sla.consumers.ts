import type { Deps } from "../deps";
import { defineConsumer } from "../events/consumers";
import { liveSlaTicket } from "../tickets/tickets.public";
import { forgetTicket, trackTicket } from "./sla.track";

/** The ticket changes that move an SLA clock: the policy follows priority; replies and status meet or restart deadlines. */
const MOVES_CLOCK = new Set(["priority", "status", "first_responded_at"]);

const ticketIdOf = (data: Record<string, unknown>): string | null => {
  if (typeof data.ticket_id === "string") return data.ticket_id;
  const ticket = data.ticket;
  return ticket && typeof ticket === "object" && "id" in ticket && typeof ticket.id === "string" ? ticket.id : null;
};

/** When the change happened on the desk's clock: the presented ticket's updated_at. */
const changedAt = (data: Record<string, unknown>): string | null => {
  const ticket = data.ticket;
  return ticket && typeof ticket === "object" && "updated_at" in ticket && typeof ticket.updated_at === "string"
    ? ticket.updated_at
    : null;
};

/**
 * Keeps each ticket's SLA clock: on creation, and on a change of priority, status (solve, reopen)
 * or the first agent reply. Reads the ticket as stored now (a later change is handled by its own
 * event), so the clock always follows the ticket's current state.
 */
export const slaTracker = defineConsumer<Deps>({
  name: "sla.tracker",
  types: ["ticket.created", "ticket.updated", "ticket.deleted"],
  handle(tx, event, { deps }) {
    const ticketId = ticketIdOf(event.data);
    if (!ticketId) return;
    if (event.type === "ticket.updated") {
      const changes = Array.isArray(event.data.changes) ? event.data.changes : [];
      if (!changes.some((change) => MOVES_CLOCK.has(String(change)))) return;
    }
    const ticket = event.type === "ticket.deleted" ? undefined : liveSlaTicket(tx, event.workspace_id, ticketId);
    if (!ticket) forgetTicket(tx, ticketId);
    else trackTicket(tx, ticket, changedAt(event.data) ?? deps.clock.now().toISOString());
  },
});
