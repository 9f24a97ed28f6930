import { expect, test } from "bun:test";
import { DeskError } from "../lib/errors";
import { createRateLimiter, enforceRateLimits } from "./rate-limit";

test("a sliding window: the limit holds within any window, and slots free one by one", () => {
  let now = 0;
  const limiter = createRateLimiter({ limit: 3, windowMs: 10_000, now: () => now });
  for (const at of [0, 2_000, 4_000]) {
    now = at;
    expect(limiter.retryAfter("k")).toBe(0);
    limiter.hit("k");
  }
  expect(limiter.retryAfter("k")).toBe(6); // the hit at 0 leaves at 10s
  expect(limiter.retryAfter("other")).toBe(0);
  now = 10_001;
  expect(limiter.retryAfter("k")).toBe(0);
  limiter.hit("k");
  expect(limiter.retryAfter("k")).toBe(2); // now the hit at 2s is the oldest of three
  limiter.reset("k");
  expect(limiter.retryAfter("k")).toBe(0);
});

test("memory stays bounded when many keys pass by", () => {
  const now = 0;
  const limiter = createRateLimiter({ limit: 1, windowMs: 60_000, now: () => now, maxKeys: 100 });
  for (let i = 0; i < 1000; i++) limiter.hit(`k${i}`);
  // the newest keys are kept, the oldest were dropped
  expect(limiter.retryAfter("k999")).toBeGreaterThan(0);
  expect(limiter.retryAfter("k0")).toBe(0);
});

test("enforceRateLimits throws 429 rate_limited with Retry-After of the longest wait; null keys are skipped", () => {
  let now = 0;
  const a = createRateLimiter({ limit: 1, windowMs: 5_000, now: () => now });
  const b = createRateLimiter({ limit: 1, windowMs: 20_000, now: () => now });
  a.hit("x");
  b.hit("y");
  now = 1_000;
  let thrown: unknown;
  try {
    enforceRateLimits([
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
  expect(() =>
    enforceRateLimits([
      [a, "free"],
      [b, null],
    ]),
  ).not.toThrow();
});
