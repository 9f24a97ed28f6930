import { afterAll, describe, expect, test } from "bun:test";
import { fakeAiEnv, startFakeAi } from "../../test/peers/fake-ai";
import { addMember, createWorkspaceWithOwner } from "../../test/factories";
import { startTestDesk } from "../../test/harness";
import { notificationsOf } from "../notifications/notifications.public";
import { parseSse, usageRows } from "../../test/kit/ai";
import { sql } from "drizzle-orm";
import { rowsOf } from "../db/store";

const fake = await startFakeAi();
afterAll(() => fake.stop());
const desk = await startTestDesk({ env: fakeAiEnv(fake, { DESK_AI_MAX_RETRIES: "2" }) });

const reset = () => {
  fake.answer = (request) => ({ text: `Answer from ${request.model}` });
  fake.delayMs = 0;
  fake.pieceDelayMs = 0;
  fake.validKeys = null;
};

describe("provider failures", () => {
  test("429 and 5xx are retried with backoff; persistent failure is a 502 problem body, costing 0", async () => {
    reset();
    const { workspace, owner } = await createWorkspaceWithOwner(desk);
    fake.failNext(503, 1, { "retry-after-ms": "10" });
    fake.failNext(429, 1, { "retry-after-ms": "10" });
    const before = fake.chats().length;
    const ok = await desk.api("POST", "/v1/ai/rewrite", {
      headers: owner.headers,
      body: { html: "<p>a</p>", mode: "shorter" },
    });
    expect(ok.status).toBe(200);
    expect(fake.chats().length - before).toBe(3);
    fake.failNext(500, 3, { "retry-after-ms": "10" });
    const failed = await desk.api("POST", "/v1/ai/rewrite", {
      headers: owner.headers,
      body: { html: "<p>a</p>", mode: "shorter" },
    });
    expect(failed.status).toBe(502);
    expect(failed.body).toEqual({
      status: 502,
      code: "ai_provider_error",
      detail: "The AI provider failed (status 500).",
    });
    expect((await usageRows(desk, workspace.id)).map((r) => [r.ok, r.usdMicros > 0])).toEqual([
      [true, true],
      [false, false],
    ]);
  });

  test("a streamed call that fails ends with an error event carrying the problem body", async () => {
    reset();
    const { owner } = await createWorkspaceWithOwner(desk);
    fake.failNext(400, 1);
    const res = await desk.api("POST", "/v1/ai/rewrite", {
      headers: { ...owner.headers, accept: "text/event-stream" },
      body: { html: "<p>a</p>", mode: "shorter" },
    });
    expect(parseSse(res.text)).toEqual([
      {
        event: "error",
        data: { status: 502, code: "ai_provider_error", detail: "The AI provider failed (status 400)." },
      },
    ]);
  });

  test("a slow provider times out as 504 ai_timeout, never a hang", async () => {
    const slowDesk = await startTestDesk({
      env: fakeAiEnv(fake, { DESK_AI_TIMEOUT: "300ms", DESK_AI_MAX_RETRIES: "0" }),
    });
    const { owner } = await createWorkspaceWithOwner(slowDesk);
    fake.delayMs = 1500;
    const started = performance.now();
    const res = await slowDesk.api("POST", "/v1/ai/rewrite", {
      headers: owner.headers,
      body: { html: "<p>a</p>", mode: "shorter" },
    });
    expect(res.status).toBe(504);
    expect(res.body.code).toBe("ai_timeout");
    expect(performance.now() - started).toBeLessThan(1400);
    fake.delayMs = 0;
    await slowDesk.stop();
  });

  test("own key: sealed, calls cost 0 with source own_key; a refused key tells admins once", async () => {
    reset();
    const { workspace, owner } = await createWorkspaceWithOwner(desk);
    const admin = await addMember(desk, workspace.id, "admin");
    const agent = await addMember(desk, workspace.id, "agent");
    const set = await desk.api("PATCH", "/v1/ai/settings", {
      headers: owner.headers,
      body: { api_key: "sk-workspace-own" },
    });
    expect(set.body).toMatchObject({ own_key: true, own_key_failed: false });
    expect(set.body.costs.draft_reply).toBe(0);
    const stored = (
      await rowsOf<{ own_key_sealed: string }>(
        desk.deps.db,
        sql`SELECT own_key_sealed FROM ai_settings WHERE workspace_id = ${workspace.id}`,
      )
    )[0]!;
    expect(stored.own_key_sealed).not.toContain("sk-workspace-own");
    const models = await desk.api("GET", "/v1/ai/models", { headers: owner.headers });
    expect(models.body.data[0].usd_per_mtok).toEqual({ input: null, output: null });
    expect(models.body.data[0].typical_reply_usd).toBeNull();

    fake.validKeys = ["sk-instance", "sk-workspace-own"];
    const ok = await desk.api("POST", "/v1/ai/rewrite", {
      headers: owner.headers,
      body: { html: "<p>a</p>", mode: "shorter" },
    });
    expect(ok.status).toBe(200);
    expect(fake.chats().at(-1)!.authorization).toBe("Bearer sk-workspace-own");
    expect(await usageRows(desk, workspace.id)).toMatchObject([{ source: "own_key", usdMicros: 0, ok: true }]);

    fake.validKeys = ["sk-instance"];
    for (let i = 0; i < 2; i++) {
      const refused = await desk.api("POST", "/v1/ai/rewrite", {
        headers: owner.headers,
        body: { html: "<p>a</p>", mode: "shorter" },
      });
      expect(refused.status).toBe(502);
      expect(refused.body.code).toBe("ai_key_failed");
    }
    const notices = async (userId: string) =>
      (
        await notificationsOf(desk.deps.db as unknown as Parameters<typeof notificationsOf>[0], workspace.id, userId, [
          "ai_key_failed",
        ])
      ).map((n) => n.data);
    expect(await notices(owner.id)).toEqual([
      { provider: `127.0.0.1:${fake.port}`, reason: "The provider refused the workspace's API key." },
    ]);
    expect(await notices(admin.id)).toHaveLength(1);
    expect(await notices(agent.id)).toHaveLength(0);
    expect((await desk.api("GET", "/v1/ai/config", { headers: owner.headers })).body.own_key_failed).toBe(true);
    // Removing the key goes back to the instance's.
    await desk.api("PATCH", "/v1/ai/settings", { headers: owner.headers, body: { api_key: null } });
    const back = await desk.api("POST", "/v1/ai/rewrite", {
      headers: owner.headers,
      body: { html: "<p>a</p>", mode: "shorter" },
    });
    expect(back.status).toBe(200);
    expect(fake.chats().at(-1)!.authorization).toBe("Bearer sk-instance");
  });
});
