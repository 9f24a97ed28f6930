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

test("the assistant's message budget counts through the desk's chosen limiter store, which decides the 429", async () => {
  const calls: string[] = [];
  const refused = new Set<string>();
  useRateLimitStore(desk.deps.db, countingStore(calls, refused));
  fake.answer = () => ({ text: "Hello." });
  const { workspace, owner } = await createWorkspaceWithOwner(desk);
  const on = await desk.api("PATCH", "/v1/ai/settings", { headers: owner.headers, body: { assistant: true } });
  expect(on.status).toBe(200);
  const session = (await desk.api("POST", "/v1/assistant/sessions", { headers: owner.headers, body: {} })).body;
  const send = () =>
    desk.api("POST", `/v1/assistant/sessions/${session.id}/messages`, { headers: owner.headers, body: { text: "hi" } });
  expect((await send()).status).toBe(200);
  expect(calls).toEqual([`assistant.messages take ${workspace.id}:${owner.id}`]);

  refused.add("assistant.messages");
  const spent = fake.chats().length;
  const refusal = await send();
  expect([refusal.status, refusal.body.code, refusal.headers.get("retry-after")]).toEqual([429, "rate_limited", "7"]);
  expect(fake.chats().length).toBe(spent);
  // A refused message never took the conversation: the next one runs.
  refused.clear();
  expect((await send()).status).toBe(200);
  expect(calls).toHaveLength(3);
});
