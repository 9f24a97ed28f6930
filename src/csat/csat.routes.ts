import { Elysia } from "elysia";
import type { Deps } from "../deps";
import { openRequestOf, presentRequest, rateTicket } from "./csat.service";
import { CsatRateBody, CsatRequestSchema, CsatTokenParams } from "./csat.schemas";

/** Budget per client address for the public rating routes (they need no credential). */
const LIMIT = { limit: 30, windowMs: 60_000 } as const;

export function csatRoutes(deps: Deps) {
  return new Elysia({ prefix: "/public/csat", tags: ["csat"] })
    .use(deps.guard)
    .get(
      "/:token",
      ({ params }) => presentRequest(openRequestOf(deps.db, params.token, deps.clock.now().toISOString())),
      {
        public: LIMIT,
        params: CsatTokenParams,
        response: { 200: CsatRequestSchema },
        detail: {
          summary: "The rating request a CSAT link names",
          description:
            "Shows the question only (link scanners fetch it): reading never records a rating. 404 for an unknown token, one older than 30 days, or a ticket since deleted or merged.",
        },
      },
    )
    .post("/:token", ({ params, body }) => presentRequest(rateTicket(params.token, body, deps)), {
      public: LIMIT,
      params: CsatTokenParams,
      body: CsatRateBody,
      response: { 200: CsatRequestSchema },
      detail: {
        summary: "Rate the support a ticket received",
        description:
          "`score` 1 (very poor) to 5 (excellent), `comment` up to 2,000 characters. Sets the ticket's `csat`, logs a `csat_received` activity and emits `ticket.updated`. A second rating through the same link replaces the first.",
      },
    });
}
