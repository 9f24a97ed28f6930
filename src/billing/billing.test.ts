import { afterAll, describe, expect, test } from "bun:test";
import { addMember, createKey, createWorkspaceWithOwner } from "../../test/factories";
import { startTestDesk } from "../../test/harness";
import { fakeAiEnv, startFakeAi } from "../../test/peers/fake-ai";
import { recordUsage } from "../ai/ai.public";
import { manualClock } from "../lib/clock";

const fake = await startFakeAi();
afterAll(() => fake.stop());
const clock = manualClock(new Date("2026-03-15T12:00:00Z"));
const desk = await startTestDesk({ env: fakeAiEnv(fake), clock });

describe("billing (self-hosted)", () => {
  test("GET /v1/billing answers the self-hosted entitlements to any member", async () => {
    const { workspace } = await createWorkspaceWithOwner(desk);
    const viewer = await addMember(desk, workspace.id, "viewer");
    await addMember(desk, workspace.id, "agent");
    expect((await desk.api("GET", "/v1/billing")).status).toBe(401);
    const res = await desk.api("GET", "/v1/billing", { headers: viewer.headers });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      plan: "self_hosted",
      billing_enabled: false,
      status: "none",
      interval: "month",
      seats: 2,
      billed_seats: 2,
      current_period_end: null,
      cancel_at_period_end: false,
      limits: { max_mailboxes: 0, max_members: 0 },
      usage: { mailboxes: 0, members: 3 },
      ai: {
        unlimited: true,
        monthly_usd: 0,
        used_usd: 0,
        purchased_usd: 0,
        remaining_usd: 0,
        period_end: "2026-04-01T00:00:00.000Z",
      },
      prices: { pro_month: null, pro_year: null, ai_top_up: null },
      auto_recharge: null,
    });
  });

  test("every other billing route answers 404 billing_disabled (after auth)", async () => {
    const { workspace, owner } = await createWorkspaceWithOwner(desk);
    const agent = await addMember(desk, workspace.id, "agent");
    for (const [method, path] of [
      ["POST", "/v1/billing/checkout"],
      ["POST", "/v1/billing/portal"],
      ["POST", "/v1/billing/top-up/checkout"],
      ["PATCH", "/v1/billing/auto-recharge"],
      ["POST", "/v1/billing/payment-method"],
    ] as const) {
      expect((await desk.api(method, path, { body: {} })).status).toBe(401);
      expect((await desk.api(method, path, { headers: agent.headers, body: {} })).status).toBe(403);
      const res = await desk.api(method, path, { headers: owner.headers, body: { interval: "month" } });
      expect([path, res.status, res.body.code]).toEqual([path, 404, "billing_disabled"]);
    }
  });

  test("the usage report adds up exactly to the recorded calls, by feature, day, member and model", async () => {
    const { workspace, owner } = await createWorkspaceWithOwner(desk);
    const agent = await addMember(desk, workspace.id, "agent");
    // Real calls through the provider, plus recorded ones on other days.
    await desk.api("POST", "/v1/ai/rewrite", { headers: agent.headers, body: { html: "<p>a</p>", mode: "shorter" } });
    fake.failNext(400);
    await desk.api("POST", "/v1/ai/rewrite", { headers: agent.headers, body: { html: "<p>a</p>", mode: "shorter" } });
    const base = { workspaceId: workspace.id, source: "instance" as const, ok: true };
    clock.set(new Date("2026-03-02T08:00:00Z"));
    await recordUsage(desk.deps, {
      ...base,
      userId: owner.id,
      feature: "draft_reply",
      model: "gpt-4o",
      inputTokens: 4000,
      outputTokens: 500,
    });
    await recordUsage(desk.deps, {
      ...base,
      userId: null,
      feature: "triage",
      model: "gpt-4o",
      inputTokens: 1333,
      outputTokens: 77,
    });
    await recordUsage(desk.deps, {
      ...base,
      userId: owner.id,
      feature: "draft_reply",
      model: "gpt-4o",
      inputTokens: 100,
      outputTokens: 10,
      source: "own_key",
    });
    clock.set(new Date("2026-02-27T08:00:00Z"));
    await recordUsage(desk.deps, {
      ...base,
      userId: owner.id,
      feature: "summarize",
      model: "gpt-4o-mini",
      inputTokens: 3,
      outputTokens: 7,
    });
    clock.set(new Date("2026-03-15T12:00:00Z"));

    const agentKey = await createKey(desk, owner, ["tickets:read"]);
    expect((await desk.api("GET", "/v1/billing/usage", { headers: agent.headers })).status).toBe(403);
    expect((await desk.api("GET", "/v1/billing/usage", { headers: agentKey.headers })).status).toBe(403);

    const report = (await desk.api("GET", "/v1/billing/usage", { headers: owner.headers })).body;
    expect(report.from).toBe("2026-03-01T00:00:00.000Z");
    expect(report.to).toBe("2026-04-01T00:00:00.000Z");
    // 0.015 (draft) + 0.0041025 (triage) + rewrite (gpt-4o-mini, tokens from the provider) + 0 + 0
    const rewrite = report.by_feature.find((f: { feature: string }) => f.feature === "rewrite");
    expect(rewrite.calls).toBe(2);
    expect(report.total_calls).toBe(5);
    expect(report.own_key_calls).toBe(1);
    const micros = (usd: number) => Math.round(usd * 1_000_000);
    expect(micros(report.total_usd)).toBe(15_000 + 4_103 + micros(rewrite.usd));
    for (const breakdown of [report.by_feature, report.by_day, report.by_member, report.by_model]) {
      expect(breakdown.reduce((n: number, r: { calls: number }) => n + r.calls, 0)).toBe(report.total_calls);
      expect(breakdown.reduce((n: number, r: { usd: number }) => n + micros(r.usd), 0)).toBe(micros(report.total_usd));
    }
    expect(report.by_day.map((d: { date: string }) => d.date)).toEqual(["2026-03-02", "2026-03-15"]);
    expect(report.by_day[0].by_feature).toEqual({ draft_reply: 0.015, triage: 0.004103 });
    expect(report.by_member.find((m: { user: unknown }) => m.user === null)).toEqual({
      user: null,
      usd: 0.004103,
      calls: 1,
    });
    expect(report.by_member.find((m: { user: { id: string } | null }) => m.user?.id === agent.id).calls).toBe(2);
    expect(report.by_model).toContainEqual({
      model: "gpt-4o",
      usd: 0,
      calls: 1,
      input_tokens: 100,
      output_tokens: 10,
      source: "own_key",
    });
    // GET /v1/billing counts this month's spend.
    const billing = (await desk.api("GET", "/v1/billing", { headers: owner.headers })).body;
    expect(billing.ai.used_usd).toBe(report.total_usd);
  });

  test("from/to: dates, a date-only to includes its day, RFC 3339, at most a year, 422 at the field", async () => {
    const { workspace, owner } = await createWorkspaceWithOwner(desk);
    clock.set(new Date("2026-02-27T23:59:59Z"));
    await recordUsage(desk.deps, {
      workspaceId: workspace.id,
      userId: null,
      feature: "summarize",
      model: "gpt-4o",
      inputTokens: 1000,
      outputTokens: 0,
      source: "instance",
      ok: true,
    });
    clock.set(new Date("2026-03-15T12:00:00Z"));
    const get = (q: string) => desk.api("GET", `/v1/billing/usage?${q}`, { headers: owner.headers });
    const day = (await get("from=2026-02-27&to=2026-02-27")).body;
    expect([day.from, day.to, day.total_calls]).toEqual(["2026-02-27T00:00:00.000Z", "2026-02-28T00:00:00.000Z", 1]);
    const exclusive = (await get("from=2026-02-01T00:00:00Z&to=2026-02-27T23:59:59Z")).body;
    expect(exclusive.total_calls).toBe(0);
    const offset = (await get("from=2026-02-27T23:00:00%2B01:00&to=2026-03-01")).body;
    expect(offset.from).toBe("2026-02-27T22:00:00.000Z");
    expect(offset.total_usd).toBe(0.0025);
    expect((await get("from=2025-01-01&to=2025-12-31")).status).toBe(200);
    for (const [q, location] of [
      ["from=2025-01-01&to=2026-01-02", "query.to"],
      ["from=yesterday", "query.from"],
      ["from=2026-02-30", "query.from"],
      ["from=2026-03-02&to=2026-03-01", "query.to"],
    ] as const) {
      const res = await get(q);
      expect([q, res.status, res.body.errors?.[0]?.location]).toEqual([q, 422, location]);
    }
  });
});
