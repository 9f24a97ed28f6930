import { Elysia } from "elysia";
import type { Deps } from "../deps";
import { requestMeta } from "../http/request-meta";
import { RATING_LIMITS, spendRatingBudget } from "./csat.limits";
import { openRequestOf, presentRequest, rateTicket } from "./csat.service";
import { CsatRateBody, CsatRequestSchema, CsatTokenParams } from "./csat.schemas";

/** Budget per client address for the public rating routes (they need no credential). */
const LIMIT = { limit: 30, windowMs: 60_000 } as const;

export function csatRoutes(deps: Deps) {
  return new Elysia({ prefix: "/public/csat", tags: ["csat"] })
    .use(deps.guard)
    .get(
      "/:token",
      async ({ params }) => presentRequest(await openRequestOf(deps.db, params.token, deps.clock.now().toISOString())),
      {
        public: LIMIT,
        params: CsatTokenParams,
        response: { 200: CsatRequestSchema },
        detail: {
          summary: "The rating request a CSAT link names",
          description:
            "The link comes in the rating mail, sent DESK_CSAT_DELAY (default 10 minutes) after the solve from the ticket's mailbox (a reopen in between cancels it). " +
            "Shows the question only (link scanners fetch it): reading never records a rating. 404 for an unknown token, one older than 30 days, a ticket since deleted or merged, a ticket reopened since (until its next solve sends a new link), or a link a later solve replaced.",
        },
      },
    )
    .post(
      "/:token",
      async ({ params, body, visit, request }) => {
        await spendRatingBudget(deps, visit.ip, params.token, requestMeta(request));
        return presentRequest(await rateTicket(params.token, body, deps));
      },
      {
        public: LIMIT,
        params: CsatTokenParams,
        body: CsatRateBody,
        response: { 200: CsatRequestSchema },
        detail: {
          summary: "Rate the support a ticket received",
          description:
            "`score` 1 (very poor) to 5 (excellent), `comment` up to 2,000 characters. Sets the ticket's `csat`, logs a `csat_received` activity and emits `ticket.updated`. A second rating through the same link replaces the first. " +
            `Rating writes (this route and the /csat/{token} form together) are limited to ${RATING_LIMITS.perAddress.limit} a minute per client address and ${RATING_LIMITS.perToken.limit} an hour per link: past either, 429 \`rate_limited\` with Retry-After. ` +
            "A link answers 404 while its ticket is reopened, and for good once a later solve has sent a new one.",
        },
      },
    );
}
