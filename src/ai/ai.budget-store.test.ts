import { afterAll, expect, test } from "bun:test";
import { createWorkspaceWithOwner } from "../../test/factories";
import { startTestDesk } from "../../test/harness";
import { fakeAiEnv, startFakeAi } from "../../test/peers/fake-ai";
import { createRateLimiter, type RateLimitStore, useRateLimitStore } from "../http/rate-limit";
import { manualClock } from "../lib/clock";

const fake = await startFakeAi();
afterAll(() => fake.stop());
const clock = manualClock(new Date("2026-11-20T10:00:00Z"));
const desk = await startTestDesk({ clock, env: fakeAiEnv(fake) });

/** Records every call the desk's limiters make; a budget named in `refused` answers "wait 7 seconds". */
function countingStore(calls: string[], refused: Set<string>): RateLimitStore {
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

test("the AI request budget counts through the desk's chosen limiter store, which decides the 429", async () => {
  const calls: string[] = [];
  const refused = new Set<string>();
  useRateLimitStore(desk.deps.db, countingStore(calls, refused));
  fake.answer = () => ({ text: "Shorter." });
  const { workspace, owner } = await createWorkspaceWithOwner(desk);
  const rewrite = () =>
    desk.api("POST", "/v1/ai/rewrite", { headers: owner.headers, body: { html: "<p>hi</p>", mode: "shorter" } });
  expect((await rewrite()).status).toBe(200);
  expect(calls).toEqual([`ai.requests take ${workspace.id}:user:${owner.id}`]);

  refused.add("ai.requests");
  const spent = fake.chats().length;
  for (const answer of [
    await rewrite(),
    await desk.api("GET", "/v1/ai/search?q=printer", { headers: owner.headers }),
  ]) {
    expect([answer.status, answer.body.code, answer.headers.get("retry-after")]).toEqual([429, "rate_limited", "7"]);
  }
  expect(calls.filter((call) => call.startsWith("ai.requests take"))).toHaveLength(3);
  expect(fake.chats().length).toBe(spent);
});
