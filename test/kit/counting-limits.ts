import { createRateLimiter, type RateLimitStore } from "../../src/http/rate-limit";
import type { Clock } from "../../src/lib/clock";

/**
 * A rate-limit store that records every call the desk's limiters make (`"<budget> <method> <key>"`)
 * and counts in memory on `clock`; a budget named in `refused` answers "wait 7 seconds".
 */
export function countingLimitStore(clock: Clock, calls: string[], refused: Set<string>): RateLimitStore {
  return {
    limiter({ name, limit, windowMs }) {
      const inner = createRateLimiter({ limit, windowMs, now: () => clock.now().getTime() });
      const answer = <T>(method: string, key: string, run: () => Promise<T>, refusal?: T): Promise<T> => {
        calls.push(`${name} ${method} ${key}`);
        return refused.has(name) && refusal !== undefined ? Promise.resolve(refusal) : run();
      };
      return {
        take: (key) => answer("take", key, () => inner.take(key), 7),
        hit: (key) => answer("hit", key, () => inner.hit(key)),
        retryAfter: (key) => answer("retryAfter", key, () => inner.retryAfter(key), 7),
        reset: (key) => answer("reset", key, () => inner.reset(key)),
        count: (key) => answer("count", key, () => inner.count(key)),
        state: (key) => answer("state", key, () => inner.state(key)),
      };
    },
  };
}
