import type { Deps } from "../deps";
import { defineConsumer } from "../events/consumers";
import { requestRatingOnSolve } from "./csat.service";

/**
 * Solving a ticket asks its customer for a rating: a durable consumer of `ticket.updated`, so the
 * request row, its mail job and the cursor commit together (a crash neither loses nor doubles it).
 */
export const csatOnSolve = defineConsumer<Deps>({
  name: "csat.request-on-solve",
  types: ["ticket.updated"],
  handle: (tx, event, { deps }) => requestRatingOnSolve(tx, event, deps),
});
