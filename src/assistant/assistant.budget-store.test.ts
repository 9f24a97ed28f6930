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

test("the assistant's message budget counts through the desk's chosen limiter store, which decides the 429", async () => {
  const calls: string[] = [];
  const refused = new Set<string>();
  useRateLimitStore(desk.deps.db, countingLimitStore(clock, calls, refused));
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
