import { expect, test } from "bun:test";
import { startTestDesk } from "../../test/harness";
import { createUser } from "../../test/factories";
import { createRateLimiter, type RateLimiter, type RateLimitStore, useRateLimitStore } from "../http/rate-limit";
import { manualClock } from "../lib/clock";

const clock = manualClock(new Date("2026-11-20T10:00:00Z"));
const desk = await startTestDesk({ clock });

/** A store that records every call its limiters answer, over the in-memory ones. */
function countingStore(calls: string[]): RateLimitStore {
  return {
    limiter({ name, limit, windowMs }) {
      const inner = createRateLimiter({ limit, windowMs, now: () => clock.now().getTime() });
      const counted = {} as RateLimiter;
      for (const method of ["take", "hit", "retryAfter", "reset", "count", "state"] as const)
        Object.assign(counted, {
          [method]: (key: string) => {
            calls.push(`${name} ${method} ${key}`);
            return inner[method](key);
          },
        });
      return counted;
    },
  };
}

test("the login route counts through the desk's chosen limiter store", async () => {
  const calls: string[] = [];
  useRateLimitStore(desk.deps.db, countingStore(calls));
  const person = await createUser(desk, { password: "right-password" });
  const failed = await desk.api("POST", "/v1/auth/login", { body: { email: person.email, password: "wrong" } });
  expect(failed.status).toBe(401);
  const account = `login:${person.email.toLowerCase()}`;
  expect(calls).toContain(`sign-in.account retryAfter ${account}`);
  expect(calls).toContain(`sign-in.account hit ${account}`);
  const ok = await desk.api("POST", "/v1/auth/login", { body: { email: person.email, password: "right-password" } });
  expect(ok.status).toBe(200);
  expect(calls).toContain(`sign-in.account reset ${account}`);
});
