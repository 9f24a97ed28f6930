import type { Deps } from "../deps";
import { type ConsumerContext, defineConsumer } from "../events/consumers";
import { ticketUpdated } from "../tickets/tickets.public";
import { requestRatingOnSolve } from "./csat.service";

/**
 * Solving a ticket asks its customer for a rating: a durable consumer of `ticket.updated`, so the
 * request row, its mail job and the cursor commit together (a crash neither loses nor doubles it).
 */
export const csatOnSolve = defineConsumer({
  name: "csat.request-on-solve",
  events: [ticketUpdated],
  handle: async (tx, event, { deps }: ConsumerContext<Deps>) => await requestRatingOnSolve(tx, event, deps),
});
