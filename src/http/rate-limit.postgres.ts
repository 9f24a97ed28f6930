import type { Db } from "../db/database";
import { postgresQuery } from "../db/postgres/query";
import { transact } from "../db/tx";
import type { RateLimiter, RateLimitStore } from "./rate-limit";

/** Expired rows a sweep removes at most: the sweep runs now and then on a write, so it stays short. */
const SWEEP_BATCH = 1000;
/** One write in this many sweeps the expired hits of every key (keys never seen again included). */
const SWEEP_EVERY = 100;

/**
 * The limiters of several nodes on one PostgreSQL database (DECISIONS.md "Past one machine"): each
 * hit is a row of `rate_limit_hits` (migrations/postgres/custom/0200_shared_limits.sql), so every node
 * counts every node's hits. `take` is one short transaction that first serialises on the (name, key)
 * with an advisory lock (two nodes counting then inserting would both pass for the last slot), then
 * counts the window and inserts when under the limit. Same sliding window as the memory store.
 */
export function postgresRateLimitStore(db: Db, now: () => number): RateLimitStore {
  const lock = postgresQuery<unknown, [string]>(db, "SELECT pg_advisory_xact_lock(hashtextextended(?, 0))");
  const count = postgresQuery<{ n: number }, [string, string, number]>(
    db,
    "SELECT count(*) AS n FROM rate_limit_hits WHERE name = ? AND key = ? AND at > ?",
  );
  // The hit whose expiry frees the next slot: the `limit`-th newest in the window.
  const freeing = postgresQuery<{ at: number }, [string, string, number, number]>(
    db,
    "SELECT at FROM rate_limit_hits WHERE name = ? AND key = ? AND at > ? ORDER BY at DESC OFFSET ? LIMIT 1",
  );
  const insert = postgresQuery<unknown, [string, string, number, number]>(
    db,
    "INSERT INTO rate_limit_hits (name, key, at, expires_at) VALUES (?, ?, ?, ?)",
  );
  const reset = postgresQuery<unknown, [string, string]>(db, "DELETE FROM rate_limit_hits WHERE name = ? AND key = ?");
  const sweep = postgresQuery<unknown, [number, number]>(
    db,
    "DELETE FROM rate_limit_hits WHERE ctid IN (SELECT ctid FROM rate_limit_hits WHERE expires_at <= ? LIMIT ?)",
  );
  let writes = 0;

  return {
    limiter({ name, limit, windowMs }): RateLimiter {
      const since = (at: number) => at - windowMs;
      const record = async (key: string, at: number) => {
        await insert.run(name, key, at, at + windowMs);
        if (++writes % SWEEP_EVERY === 0) await sweep.run(at, SWEEP_BATCH);
      };
      const used = async (key: string, at: number) => (await count.get(name, key, since(at)))?.n ?? 0;
      const retryAfter = async (key: string, at: number) => {
        if ((await used(key, at)) < limit) return 0;
        const oldest = (await freeing.get(name, key, since(at), limit - 1))?.at ?? at;
        return Math.max(1, Math.ceil((oldest + windowMs - at) / 1000));
      };
      return {
        take: (key) =>
          transact(db, async () => {
            await lock.run(`${name}\n${key}`);
            const at = now();
            const wait = await retryAfter(key, at);
            if (wait === 0) await record(key, at);
            return wait;
          }),
        hit: (key) => transact(db, () => record(key, now())),
        retryAfter: (key) => retryAfter(key, now()),
        reset: (key) => reset.run(name, key),
        count: (key) => used(key, now()),
        async state(key) {
          const at = now();
          const n = await used(key, at);
          const remaining = Math.max(0, limit - n);
          const frees =
            n === 0
              ? at
              : ((await freeing.get(name, key, since(at), Math.min(n, limit) - 1))?.at ?? at - windowMs) + windowMs;
          return { limit, remaining, reset: Math.max(0, Math.ceil((frees - at) / 1000)) };
        },
      };
    },
  };
}
