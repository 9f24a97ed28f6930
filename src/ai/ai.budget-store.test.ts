import { afterAll, expect, test } from "bun:test";
import { createWorkspaceWithOwner } from "../../test/factories";
import { startTestDesk } from "../../test/harness";
import { fakeAiEnv, startFakeAi } from "../../test/peers/fake-ai";
import { useRateLimitStore } from "../http/rate-limit";
import { countingLimitStore } from "../../test/kit/counting-limits";
import { manualClock } from "../lib/clock";

const fake = await startFakeAi();
afterAll(() => fake.stop());
const clock = manualClock(new Date("2026-11-20T10:00:00Z"));
const desk = await startTestDesk({ clock, env: fakeAiEnv(fake) });

test("the AI request budget counts through the desk's chosen limiter store, which decides the 429", async () => {
  const calls: string[] = [];
  const refused = new Set<string>();
  useRateLimitStore(desk.deps.db, countingLimitStore(clock, calls, refused));
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
