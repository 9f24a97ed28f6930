import { deskState } from "../db/desk-state";
import type { Deps } from "../deps";
import { deskRateLimiter, enforceRateLimits, type RateLimiter } from "../http/rate-limit";
import type { RequestMeta } from "../http/request-meta";
import { sha256Hex } from "../lib/crypto";

/**
 * Budgets for recording a rating (the page's form and the public API share them). Per address: a
 * client trying many links is throttled whichever tokens it names. Per token: one leaked or
 * forwarded link cannot be used to churn a ticket's rating and its `ticket.updated` events.
 */
export const RATING_LIMITS = {
  perAddress: { limit: 10, windowMs: 60_000 },
  perToken: { limit: 10, windowMs: 3_600_000 },
} as const;

const limitersOf = deskState("csat.rating-limits", () => ({
  address: null as RateLimiter | null,
  token: null as RateLimiter | null,
}));

/**
 * Spends one hit of each budget or throws 429 `rate_limited` (Retry-After). Counted before the token
 * is looked up, so unknown tokens cost the same as real ones. An in-process call has no address and
 * spends only the token's budget. The token is keyed by its hash: no link stays in memory in clear.
 */
export async function spendRatingBudget(
  deps: Pick<Deps, "db" | "clock">,
  ip: string | null,
  token: string,
  meta?: RequestMeta,
) {
  const limiters = limitersOf(deps.db);
  limiters.address ??= deskRateLimiter(deps, { name: "csat.address", ...RATING_LIMITS.perAddress });
  limiters.token ??= deskRateLimiter(deps, { name: "csat.token", ...RATING_LIMITS.perToken });
  const tokenKey = sha256Hex(token);
  await enforceRateLimits(
    [
      [limiters.address, ip],
      [limiters.token, tokenKey],
    ],
    meta,
  );
  if (ip !== null) await limiters.address.hit(ip);
  await limiters.token.hit(tokenKey);
}
