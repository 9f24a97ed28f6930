/** What other features may use of members: tickets supply the open-ticket count members present. */
export { registerOpenTicketCounter } from "./members.open-tickets";
