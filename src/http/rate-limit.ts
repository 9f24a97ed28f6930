import { rateLimited } from "../lib/errors";

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
  };
}

/** Throws 429 `rate_limited` with Retry-After when any of the keys is over its limit. */
export function enforceRateLimits(checks: Array<[RateLimiter, string | null]>): void {
  let wait = 0;
  for (const [limiter, key] of checks) if (key !== null) wait = Math.max(wait, limiter.retryAfter(key));
  if (wait > 0) throw rateLimited(wait);
}
