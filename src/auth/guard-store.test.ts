import { afterAll, expect, test } from "bun:test";
import type { Server } from "bun";
import { Elysia } from "elysia";
import { startTestDesk } from "../../test/harness";
import { httpDepsOf } from "../compose";
import { asDeskError } from "../http/errors-map";
import { errorResponse } from "../http/respond";
import { createRateLimiter, type RateLimiter, type RateLimitStore } from "../http/rate-limit";
import { createHttpHandler } from "../http/server";
import { manualClock } from "../lib/clock";
import { guardPlugin } from "./guard";

const clock = manualClock();
const desk = await startTestDesk({ clock });
const calls: string[] = [];
// Counts every call the public routes' limiters make, over the in-memory ones.
const store: RateLimitStore = {
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
const app = new Elysia()
  .onError(({ code, error }) => errorResponse(asDeskError(code, error)))
  .use(guardPlugin(desk.deps.credentials, { clock, rateLimits: store }))
  .get("/v1/help/ping", () => ({ ok: true }), { public: { limit: 2, windowMs: 60_000 } })
  .get("/v1/help/private", () => ({ ok: true }));
const handler = createHttpHandler((request) => app.handle(request), httpDepsOf(desk.deps));
// A real socket: the public budget is per client address, which only a socket has.
const server = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: (r, s) => handler(r, s as Server<unknown>) });
afterAll(() => server.stop(true));
const get = (path: string) => fetch(`http://127.0.0.1:${server.port}${path}`);

test("public routes spend their budget through the guard's store: one take per request, headers from its state", async () => {
  const first = await get("/v1/help/ping");
  expect(first.status).toBe(200);
  expect(first.headers.get("ratelimit-remaining")).toBe("1");
  expect(calls).toEqual(["public.2/60000 take 127.0.0.1", "public.2/60000 state 127.0.0.1"]);
  await get("/v1/help/ping");
  const refused = await get("/v1/help/ping");
  expect(refused.status).toBe(429);
  expect(refused.headers.get("retry-after")).toBe("60");
  // A route with no budget asks the store nothing.
  calls.length = 0;
  expect((await get("/v1/help/private")).status).toBe(200);
  expect(calls).toEqual([]);
});
