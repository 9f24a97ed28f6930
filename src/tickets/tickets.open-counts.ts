import type { OpenTicketCounter } from "../members/members.public";
import { ticketCountStatements } from "./tickets.statements";

/**
 * A member's `open_tickets` is the number of unsolved tickets (open, pending, on hold) assigned to
 * them: the same set that is unassigned when they leave, and what an assignment cap weighs. The
 * tickets feature owns the table, so it supplies the count to members.
 */
export const countMemberOpenTickets: OpenTicketCounter = async (tx, workspaceId, userIds) =>
  await ticketCountStatements(tx).openTicketsOfAssignees(workspaceId, userIds);
