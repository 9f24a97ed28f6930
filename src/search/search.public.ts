/** What other features may use of search: the full-text match of tickets a ticket list filters by. */
export { matchingTicketIdsSql } from "./search.query";
