import type { Db } from "../db/database";
import { deskState } from "../db/desk-state";
import type { Clock } from "../lib/clock";
import { rateLimited } from "../lib/errors";
import type { RateLimitState, RequestMeta } from "./request-meta";

/**
 * A sliding-window budget: at most `limit` hits per key within any `windowMs`. Asynchronous because
 * the shared implementation (several nodes on one PostgreSQL database, DECISIONS.md "Past one
 * machine") answers from a table; the in-memory one below answers at once.
 */
export type RateLimiter = {
  /**
   * Checks and records in one step: 0 when under the limit (the hit is counted), else the seconds
   * to wait (nothing counted). A caller that would check then hit uses this, so two nodes cannot
   * both pass the check for the last slot.
   */
  take(key: string): Promise<number>;
  /** Records one hit for `key` (a failure counted after the fact). */
  hit(key: string): Promise<void>;
  /** Seconds until `key` may go again; 0 while it is under the limit. */
  retryAfter(key: string): Promise<number>;
  /** Forgets `key` (for example after a successful sign-in). */
  reset(key: string): Promise<void>;
  /** Hits of `key` within the window. */
  count(key: string): Promise<number>;
  /** The budget of `key` as the RateLimit-* headers state it. */
  state(key: string): Promise<RateLimitState>;
};

export type RateLimitOptions = { limit: number; windowMs: number; now?: () => number; maxKeys?: number };

type SyncLimiter = { [K in keyof RateLimiter]: (key: string) => Awaited<ReturnType<RateLimiter[K]>> };

/** The in-memory sliding window itself, answering at once; `createRateLimiter` wraps it. */
function slidingWindow({ limit, windowMs, now = Date.now, maxKeys = 100_000 }: RateLimitOptions): SyncLimiter {
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

  const hit = (key: string, at: number) => {
    const list = recent(key, at);
    list.push(at);
    hits.set(key, list);
    if (hits.size > maxKeys) sweep(at);
  };
  const retryAfter = (key: string, at: number) => {
    const list = recent(key, at);
    if (list.length < limit) return 0;
    const freesAt = list[list.length - limit]! + windowMs;
    return Math.max(1, Math.ceil((freesAt - at) / 1000));
  };

  return {
    take(key) {
      const at = now();
      const wait = retryAfter(key, at);
      if (wait === 0) hit(key, at);
      return wait;
    },
    hit: (key) => hit(key, now()),
    retryAfter: (key) => retryAfter(key, now()),
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

/**
 * The in-memory limiter: one process owns the data (a single Bun executable), so memory is the right
 * store there; a restart forgets counts, which only ever favours the caller. Bounded by `maxKeys`.
 */
export function createRateLimiter(options: RateLimitOptions): RateLimiter {
  const window = slidingWindow(options);
  return {
    take: async (key) => window.take(key),
    hit: async (key) => window.hit(key),
    retryAfter: async (key) => window.retryAfter(key),
    reset: async (key) => window.reset(key),
    count: async (key) => window.count(key),
    state: async (key) => window.state(key),
  };
}

/**
 * Builds a desk's limiters. `name` says which budget (`sign-in.account`): in memory every limiter
 * has its own map; a shared table keys its rows by name and key.
 */
export type RateLimitStore = {
  limiter(options: { name: string; limit: number; windowMs: number }): RateLimiter;
};

export const memoryRateLimitStore = (now: () => number): RateLimitStore => ({
  limiter: ({ limit, windowMs }) => createRateLimiter({ limit, windowMs, now }),
});

const chosenStore = deskState("http.rate-limit-store", () => ({ store: null as RateLimitStore | null }));

/** Chooses the desk's limiter store before its first request (a test's counting store; later a shared table). */
export function useRateLimitStore(db: Db, store: RateLimitStore): void {
  chosenStore(db).store = store;
}

/**
 * The one place features get a limiter: from the desk's chosen store, in memory unless one was
 * chosen. Resolved on first use, so routes built at start-up follow a store chosen after them.
 */
export function deskRateLimiter(
  deps: { db: Db; clock: Clock },
  options: { name: string; limit: number; windowMs: number },
): RateLimiter {
  let limiter: RateLimiter | null = null;
  const get = () => {
    const store = chosenStore(deps.db).store ?? memoryRateLimitStore(() => deps.clock.now().getTime());
    limiter = store.limiter(options);
    return limiter;
  };
  return {
    take: (key) => (limiter ?? get()).take(key),
    hit: (key) => (limiter ?? get()).hit(key),
    retryAfter: (key) => (limiter ?? get()).retryAfter(key),
    reset: (key) => (limiter ?? get()).reset(key),
    count: (key) => (limiter ?? get()).count(key),
    state: (key) => (limiter ?? get()).state(key),
  };
}

/** The tightest of several budgets: the least remaining, then the longest wait. */
async function tightest(checks: ReadonlyArray<readonly [RateLimiter, string]>): Promise<RateLimitState> {
  const states = await Promise.all(checks.map(([limiter, key]) => limiter.state(key)));
  let best = states[0]!;
  for (const state of states)
    if (state.remaining < best.remaining || (state.remaining === best.remaining && state.reset > best.reset))
      best = state;
  return best;
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
export async function enforceRateLimits(
  checks: Array<[RateLimiter, string | null]>,
  meta?: RequestMeta,
): Promise<void> {
  const applied = checks.filter((check): check is [RateLimiter, string] => check[1] !== null);
  if (applied.length === 0) return;
  if (meta) meta.rateLimit = () => tightest(applied);
  const waits = await Promise.all(applied.map(([limiter, key]) => limiter.retryAfter(key)));
  const wait = Math.max(0, ...waits);
  if (wait > 0) {
    throw rateLimited(wait, rateLimitHeaders(await tightest(applied)));
  }
}

/**
 * `enforceRateLimits` for one budget the request spends: checks and counts in one `take`, so a
 * shared store cannot let two nodes both pass for the last slot.
 */
export async function takeRateLimit(limiter: RateLimiter, key: string | null, meta?: RequestMeta): Promise<void> {
  if (key === null) return;
  if (meta) meta.rateLimit = () => limiter.state(key);
  const wait = await limiter.take(key);
  if (wait > 0) throw rateLimited(wait, rateLimitHeaders(await limiter.state(key)));
}

/**
 * A per-minute budget each key (a person or an API key in a workspace) spends one hit of per call,
 * counted by the desk's limiter store (`deskRateLimiter`, shared by the nodes once the store is a
 * table); past it the call answers 429 `rate_limited` with Retry-After. Declared at module scope like
 * `deskState`: `const take = minuteBudget("ai.requests", 60); await take(deps, key)`.
 */
export function minuteBudget(name: string, limit: number) {
  const limiterOf = deskState(name, () => ({ limiter: null as RateLimiter | null }));
  return async (deps: { db: Db; clock: Clock }, key: string): Promise<void> => {
    const holder = limiterOf(deps.db);
    holder.limiter ??= deskRateLimiter(deps, { name, limit, windowMs: 60_000 });
    const wait = await holder.limiter.take(key);
    if (wait > 0) throw rateLimited(wait);
  };
}
