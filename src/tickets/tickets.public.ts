import { and, eq, type SQL } from "drizzle-orm";
import type { RequestContext } from "../auth/context";
import type { Queryable } from "../db/database";
import { ticketScope } from "./tickets.list";
import { tickets } from "./tickets.table";

/** What other features may use of tickets (the ticket aggregate owns this file; these are the reads its neighbours use). */
export { presentTickets, userRefsOf, type TicketJson } from "./tickets.present";
export { ticketScope } from "./tickets.list";
export { queryText, TicketSchema, UserRefSchema } from "./tickets.schemas";
export { SEARCH_RESULTS, searchTickets } from "./tickets.search";
export { CHANNELS, SEVERITIES } from "./tickets.table";

/** The tickets a caller may count in reports: visible to them (private teams' only for members), live, not spam. */
export const reportableTicketsSql = (db: Queryable, ctx: RequestContext): SQL =>
  and(...ticketScope(db, ctx), eq(tickets.spam, false))!;
