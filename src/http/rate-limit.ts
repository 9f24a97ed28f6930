import type { Db } from "../db/database";
import { deskState } from "../db/desk-state";
import type { Clock } from "../lib/clock";
import { rateLimited } from "../lib/errors";
import type { RateLimitState, RequestMeta } from "./request-meta";

/**
 * An in-memory sliding-window counter: at most `limit` hits per key within any `windowMs`.
 * One process owns the data (a single Bun executable), so memory is the right store; a restart
 * forgets counts, which only ever favours the caller.
 */
export type RateLimiter = {
  /** Records one hit for `key`. */
  hit(key: string): void;
  /** Seconds until `key` may go again; 0 while it is under the limit. */
  retryAfter(key: string): number;
  /** Forgets `key` (for example after a successful sign-in). */
  reset(key: string): void;
  /** Hits of `key` within the window. */
  count(key: string): number;
  /** The budget of `key` as the RateLimit-* headers state it. */
  state(key: string): RateLimitState;
};

export type RateLimitOptions = { limit: number; windowMs: number; now?: () => number; maxKeys?: number };

export function createRateLimiter({
  limit,
  windowMs,
  now = Date.now,
  maxKeys = 100_000,
}: RateLimitOptions): RateLimiter {
  const hits = new Map<string, number[]>();

  const recent = (key: string, at: number): number[] => {
    const list = hits.get(key);
    if (!list) return [];
    const firstLive = list.findIndex((t) => t > at - windowMs);
    if (firstLive === -1) {
      hits.delete(key);
      return [];
    }
    if (firstLive > 0) list.splice(0, firstLive);
    return list;
  };

  /** Keeps memory bounded when many keys (addresses, emails) pass by: drop expired, then oldest. */
  const sweep = (at: number) => {
    for (const key of hits.keys()) recent(key, at);
    for (const key of hits.keys()) {
      if (hits.size <= maxKeys) break;
      hits.delete(key);
    }
  };

  return {
    hit(key) {
      const at = now();
      const list = recent(key, at);
      list.push(at);
      hits.set(key, list);
      if (hits.size > maxKeys) sweep(at);
    },
    retryAfter(key) {
      const at = now();
      const list = recent(key, at);
      if (list.length < limit) return 0;
      const freesAt = list[list.length - limit]! + windowMs;
      return Math.max(1, Math.ceil((freesAt - at) / 1000));
    },
    reset(key) {
      hits.delete(key);
    },
    count: (key) => recent(key, now()).length,
    state(key) {
      const at = now();
      const list = recent(key, at);
      const remaining = Math.max(0, limit - list.length);
      // At the limit the next slot is the one Retry-After names; below it, the oldest hit's expiry.
      const frees = list.length === 0 ? at : list[Math.max(0, list.length - limit)]! + windowMs;
      return { limit, remaining, reset: Math.max(0, Math.ceil((frees - at) / 1000)) };
    },
  };
}

/** The tightest of several budgets: the least remaining, then the longest wait. */
function tightest(checks: ReadonlyArray<readonly [RateLimiter, string]>): RateLimitState {
  let best: RateLimitState | null = null;
  for (const [limiter, key] of checks) {
    const state = limiter.state(key);
    if (!best || state.remaining < best.remaining || (state.remaining === best.remaining && state.reset > best.reset))
      best = state;
  }
  return best!;
}

export function rateLimitHeaders(state: RateLimitState): Record<string, string> {
  return {
    "RateLimit-Limit": String(state.limit),
    "RateLimit-Remaining": String(state.remaining),
    "RateLimit-Reset": String(state.reset),
  };
}

/**
 * Throws 429 `rate_limited` with Retry-After and the RateLimit-* headers when any of the keys is
 * over its limit. Given the request's meta, the answer carries the RateLimit-* headers of the
 * tightest budget whatever its status: they are read when the answer is sent (src/http/server.ts),
 * so hits the handler records after this check (a failed sign-in) count.
 */
export function enforceRateLimits(checks: Array<[RateLimiter, string | null]>, meta?: RequestMeta): void {
  const applied = checks.filter((check): check is [RateLimiter, string] => check[1] !== null);
  if (applied.length === 0) return;
  if (meta) meta.rateLimit = () => tightest(applied);
  let wait = 0;
  for (const [limiter, key] of applied) wait = Math.max(wait, limiter.retryAfter(key));
  if (wait > 0) {
    throw rateLimited(wait, rateLimitHeaders(tightest(applied)));
  }
}

/**
 * A per-minute budget each key (a person or an API key in a workspace) spends one hit of per call,
 * kept with the desk; past it the call answers 429 `rate_limited` with Retry-After. Declared at
 * module scope like `deskState`: `const take = minuteBudget("ai.requests", 60); take(deps, key)`.
 */
export function minuteBudget(name: string, limit: number) {
  const limiterOf = deskState(name, () => ({ limiter: null as RateLimiter | null }));
  return (deps: { db: Db; clock: Clock }, key: string): void => {
    const holder = limiterOf(deps.db);
    holder.limiter ??= createRateLimiter({ limit, windowMs: 60_000, now: () => deps.clock.now().getTime() });
    const wait = holder.limiter.retryAfter(key);
    if (wait > 0) throw rateLimited(wait);
    holder.limiter.hit(key);
  };
}
