import type { VisitorContext } from "../auth/context";
import { deskState } from "../db/desk-state";
import type { Deps } from "../deps";
import { createRateLimiter, enforceRateLimits, type RateLimiter } from "../http/rate-limit";
import { requestMeta } from "../http/request-meta";

/** Budgets per minute: a person chatting never meets them; a script hammering one session or address does. */
export const WIDGET_LIMITS = {
  /** Reads (conversation list, threads) per visitor session. */
  readsPerVisitor: 120,
  /** Messages, new conversations and handoffs per visitor session. */
  writesPerVisitor: 20,
  /** The same per client address, across all its sessions. */
  writesPerAddress: 60,
  /** Uploads per visitor session. */
  uploadsPerVisitor: 10,
  /** New or resumed sessions per client address. */
  sessionsPerAddress: 30,
} as const;

type Limiters = Record<keyof typeof WIDGET_LIMITS, RateLimiter>;

const limitersOf = deskState("widget.rate-limits", () => new Map<Deps["clock"], Limiters>());

function limiters(deps: Pick<Deps, "db" | "clock">): Limiters {
  const byClock = limitersOf(deps.db);
  let found = byClock.get(deps.clock);
  if (!found) {
    const now = () => deps.clock.now().getTime();
    found = Object.fromEntries(
      Object.entries(WIDGET_LIMITS).map(([name, limit]) => [name, createRateLimiter({ limit, windowMs: 60_000, now })]),
    ) as Limiters;
    byClock.set(deps.clock, found);
  }
  return found;
}

export type VisitorAction = "read" | "write" | "upload";

/** 429 with Retry-After once the visitor or their address is over budget; otherwise counts the request. */
export function spendVisitorBudget(
  deps: Pick<Deps, "db" | "clock">,
  request: Request,
  visitor: VisitorContext,
  action: VisitorAction,
): void {
  const all = limiters(deps);
  const session = visitor.visitorSessionId;
  const checks: Array<[RateLimiter, string | null]> =
    action === "read"
      ? [[all.readsPerVisitor, session]]
      : action === "write"
        ? [
            [all.writesPerVisitor, session],
            [all.writesPerAddress, visitor.ip],
          ]
        : [
            [all.uploadsPerVisitor, session],
            [all.writesPerAddress, visitor.ip],
          ];
  enforceRateLimits(checks, requestMeta(request));
  for (const [limiter, key] of checks) if (key !== null) limiter.hit(key);
}

/** Session starts per client address (in-process calls, with no address, are not counted). */
export function spendSessionBudget(deps: Pick<Deps, "db" | "clock">, request: Request): void {
  const ip = requestMeta(request).ip;
  const limiter = limiters(deps).sessionsPerAddress;
  enforceRateLimits([[limiter, ip]], requestMeta(request));
  if (ip !== null) limiter.hit(ip);
}
