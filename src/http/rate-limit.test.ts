import { expect, test } from "bun:test";
import { DeskError } from "../lib/errors";
import { createRateLimiter, enforceRateLimits } from "./rate-limit";

test("a sliding window: the limit holds within any window, and slots free one by one", async () => {
  let now = 0;
  const limiter = createRateLimiter({ limit: 3, windowMs: 10_000, now: () => now });
  for (const at of [0, 2_000, 4_000]) {
    now = at;
    expect(await limiter.retryAfter("k")).toBe(0);
    await limiter.hit("k");
  }
  expect(await limiter.retryAfter("k")).toBe(6); // the hit at 0 leaves at 10s
  expect(await limiter.retryAfter("other")).toBe(0);
  now = 10_001;
  expect(await limiter.retryAfter("k")).toBe(0);
  await limiter.hit("k");
  expect(await limiter.retryAfter("k")).toBe(2); // now the hit at 2s is the oldest of three
  await limiter.reset("k");
  expect(await limiter.retryAfter("k")).toBe(0);
});

test("memory stays bounded when many keys pass by", async () => {
  const now = 0;
  const limiter = createRateLimiter({ limit: 1, windowMs: 60_000, now: () => now, maxKeys: 100 });
  for (let i = 0; i < 1000; i++) await limiter.hit(`k${i}`);
  // the newest keys are kept, the oldest were dropped
  expect(await limiter.retryAfter("k999")).toBeGreaterThan(0);
  expect(await limiter.retryAfter("k0")).toBe(0);
});

test("enforceRateLimits throws 429 rate_limited with Retry-After of the longest wait; null keys are skipped", async () => {
  let now = 0;
  const a = createRateLimiter({ limit: 1, windowMs: 5_000, now: () => now });
  const b = createRateLimiter({ limit: 1, windowMs: 20_000, now: () => now });
  await a.hit("x");
  await b.hit("y");
  now = 1_000;
  let thrown: unknown;
  try {
    await enforceRateLimits([
      [a, "x"],
      [b, "y"],
      [b, null],
    ]);
  } catch (error) {
    thrown = error;
  }
  expect(thrown).toBeInstanceOf(DeskError);
  expect((thrown as DeskError).toBody()).toMatchObject({ status: 429, code: "rate_limited" });
  // The tightest budget's RateLimit-* headers go with it; its reset is the same wait as Retry-After.
  expect((thrown as DeskError).headers).toEqual({
    "Retry-After": "19",
    "RateLimit-Limit": "1",
    "RateLimit-Remaining": "0",
    "RateLimit-Reset": "19",
  });
  await enforceRateLimits([
    [a, "free"],
    [b, null],
  ]);
});

test("take checks and counts in one call: refused takes count nothing", async () => {
  let now = 0;
  const limiter = createRateLimiter({ limit: 2, windowMs: 10_000, now: () => now });
  expect(await limiter.take("k")).toBe(0);
  now = 1_000;
  expect(await limiter.take("k")).toBe(0);
  expect(await limiter.take("k")).toBe(9); // the take at 0 leaves at 10s
  expect(await limiter.count("k")).toBe(2);
  now = 10_001;
  expect(await limiter.take("k")).toBe(0);
});
