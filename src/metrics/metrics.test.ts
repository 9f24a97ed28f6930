import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { startTestDesk } from "../../test/harness";
import { onPostgres } from "../../test/kit/postgres";
import { createWorkspaceWithOwner } from "../../test/factories";
import { freePort } from "../../test/peers/dovecot";
import { manualClock } from "../lib/clock";
import { sendRawSmtp } from "../../test/peers/smtp-send";
import {
  counterValue,
  countSmtpSession,
  HTTP_SERIES_MAX,
  incrementCounter,
  MAX_SERIES_PER_METRIC,
  observeHistogram,
  recordHttpRequest,
  renderMetrics,
} from "./metrics";
import { sql } from "drizzle-orm";
import { execute, rowsOf } from "../db/store";

const desk = await startTestDesk();

describe("GET /metrics", () => {
  test("Prometheus text with requests, latency, jobs, sockets, SMTP sessions and seq lag", async () => {
    const { owner } = await createWorkspaceWithOwner(desk);
    await fetch(`${desk.url}/v1/webhooks`, { headers: owner.headers });
    await fetch(`${desk.url}/v1/webhooks/01a2b3c4-d5e6-7f80-9a0b-1c2d3e4f5a6b`, { headers: owner.headers });
    countSmtpSession();
    const socket = new WebSocket(
      `${desk.url.replace("http", "ws")}/v1/realtime?token=${(await desk.api("POST", "/v1/realtime/token", { headers: owner.headers })).body.token}`,
    );
    await new Promise((resolve) => socket.addEventListener("open", resolve));
    const res = await fetch(`${desk.url}/metrics`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("text/plain");
    const text = await res.text();
    expect(text).toContain('desk_http_requests_total{method="GET",route="/v1/webhooks",status="200"} 1');
    expect(text).toContain('desk_http_requests_total{method="GET",route="/v1/webhooks/:id",status="404"} 1');
    expect(text).toMatch(
      /desk_http_request_duration_seconds_bucket\{method="GET",route="\/v1\/webhooks",le="\+Inf"\} 1/,
    );
    expect(text).toMatch(/desk_smtp_sessions_total \d+/);
    expect(text).toMatch(/desk_realtime_sockets\{kind="agent"\} [1-9]/);
    expect(text).toMatch(/desk_jobs\{kind="[a-z.]+",state="queued"\} \d+/);
    expect(text).toContain("desk_event_seq_lag 0");
    expect(text).toContain("# TYPE desk_http_request_duration_seconds histogram");
    socket.close();
  });

  test("each consumer's lag in events and seconds, and its work since start", async () => {
    const clock = manualClock(new Date("2026-04-01T10:00:00Z"));
    // Consumers off: nothing moves the cursors but the drain below.
    const stalled = await startTestDesk({ clock, env: { DESK_JOBS: "off" } });
    const { owner } = await createWorkspaceWithOwner(stalled);
    await stalled.consumers.drain();
    const metrics = async () => (await stalled.fetch(new Request("http://127.0.0.1/metrics"))).text();
    expect(await metrics()).toContain('desk_consumer_lag_events{consumer="sla.tracker"} 0');
    await stalled.api("POST", "/v1/tickets", { headers: owner.headers, body: { subject: "Waiting" } });
    // Events carry the time they were stored at; the scrape's clock is set 90 s after the newest.
    const stored = (
      await rowsOf<{ at: string }>(
        stalled.deps.db,
        sql`SELECT occurred_at AS at FROM events ORDER BY occurred_at DESC, seq DESC LIMIT 1`,
      )
    )[0]!.at;
    clock.set(new Date(Date.parse(stored) + 90_000));
    const behind = await metrics();
    expect(behind).toMatch(/desk_consumer_lag_events\{consumer="sla.tracker"\} [1-9]/);
    expect(behind).toContain('desk_consumer_lag_seconds{consumer="sla.tracker"} 90');
    await stalled.consumers.drain();
    const caughtUp = await metrics();
    expect(caughtUp).toContain('desk_consumer_lag_seconds{consumer="sla.tracker"} 0');
    expect(caughtUp).toMatch(/desk_consumer_events_total\{consumer="sla.tracker",outcome="handled"\} [1-9]/);
    // Only running consumers are labelled, whatever cursor rows the table holds.
    await execute(
      stalled.deps.db,
      sql`INSERT INTO event_consumers (name, last_rowid, updated_at) VALUES ('gone.consumer', 0, '')`,
    );
    expect(await metrics()).not.toContain("gone.consumer");
    await stalled.stop();
  });

  test("SMTP sessions and messages, the database's size and WAL, and the oldest due job are measured where they happen", async () => {
    const smtpPort = await freePort();
    const mailDesk = await startTestDesk({ env: { DESK_SMTP_PORT: String(smtpPort) } });
    const { owner } = await createWorkspaceWithOwner(mailDesk);
    await mailDesk.api("POST", "/v1/mailboxes", {
      headers: owner.headers,
      body: { name: "Support", email: "support@metrics.test" },
    });
    const sessions = counterValue("desk_smtp_sessions_total");
    const accepted = counterValue("desk_smtp_messages_total", { outcome: "accepted" });
    const raw = new TextEncoder().encode(
      "From: Carol <carol@customer.test>\r\nTo: support@metrics.test\r\nSubject: Hi\r\nMessage-ID: <m1@customer.test>\r\n\r\nHello\r\n",
    );
    await sendRawSmtp(smtpPort, raw, { from: "carol@customer.test", to: ["support@metrics.test"] });
    expect(counterValue("desk_smtp_sessions_total")).toBe(sessions + 1);
    expect(counterValue("desk_smtp_messages_total", { outcome: "accepted" })).toBe(accepted + 1);
    const text = await (await fetch(`${mailDesk.url}/metrics`)).text();
    if (onPostgres) {
      // The database is a server's, not a file beside Desk: no file sizes to report.
      expect(text).not.toContain("desk_db_size_bytes");
      expect(text).not.toContain("desk_db_wal_bytes");
    } else {
      expect(text).toMatch(/desk_db_size_bytes [1-9]\d*/);
      expect(text).toMatch(/desk_db_wal_bytes \d+/);
    }
    expect(text).toMatch(/desk_jobs_oldest_due_seconds \d/);
    expect(text).toContain("# TYPE desk_smtp_messages_total counter");
  });

  test("with DESK_METRICS_TOKEN set, only its bearer reads the metrics", async () => {
    const token = "metrics-token-0123456789abcdef";
    const guarded = await startTestDesk({ env: { DESK_METRICS_TOKEN: token } });
    const anonymous = await fetch(`${guarded.url}/metrics`);
    expect(anonymous.status).toBe(401);
    expect(await anonymous.json()).toMatchObject({ status: 401, code: "unauthorized" });
    expect(
      (await fetch(`${guarded.url}/metrics`, { headers: { authorization: "Bearer wrong-token-0123456789abcdef" } }))
        .status,
    ).toBe(401);
    const allowed = await fetch(`${guarded.url}/metrics`, { headers: { authorization: `Bearer ${token}` } });
    expect(allowed.status).toBe(200);
    expect(await allowed.text()).toContain("# TYPE desk_http_requests_total counter");
  });

  test("on a listener other machines reach, /metrics needs a token by default: the one generated into the data dir", async () => {
    const exposed = await startTestDesk({ env: { DESK_HOST: "0.0.0.0" } });
    const url = `http://127.0.0.1:${new URL(exposed.url).port}/metrics`;
    const anonymous = await fetch(url);
    expect(anonymous.status).toBe(401);
    expect(await anonymous.json()).toMatchObject({ status: 401, code: "unauthorized" });
    const token = readFileSync(join(exposed.deps.config.dataDir, "metrics-token.key"), "utf8").trim();
    expect(token.length).toBeGreaterThanOrEqual(32);
    expect((await fetch(url, { headers: { authorization: `Bearer ${token}` } })).status).toBe(200);
    // The loopback default stays open, as the other tests here show.
    expect((await fetch(`${desk.url}/metrics`)).status).toBe(200);
  });

  test("free path parameters never become labels: unauthenticated requests to any id, slug or token add no series", async () => {
    const free = (i: number) => `zq${i}x${Math.random().toString(36).slice(2, 8)}`;
    const paths = (i: number) => [
      `/v1/tickets/${free(i)}`,
      `/v1/attachments/${free(i)}`,
      `/v1/public/help/${free(i)}`,
      `/v1/public/csat/${free(i)}`,
      `/nowhere/${free(i)}`,
    ];
    const seriesCount = async () =>
      (await (await fetch(`${desk.url}/metrics`)).text()).split("\n").filter((l) => l.startsWith("desk_http_")).length;
    for (const path of paths(0)) await fetch(`${desk.url}${path}`);
    await seriesCount(); // the scrape's own series
    const before = await seriesCount();
    // Fewer than the public routes' budget per address: a 429 would be a new (legitimate) series.
    for (let i = 1; i <= 15; i++) await Promise.all(paths(i).map((path) => fetch(`${desk.url}${path}`)));
    const text = await (await fetch(`${desk.url}/metrics`)).text();
    expect(text).not.toMatch(/route="[^"]*zq\d+x/);
    expect(text).toMatch(/desk_http_requests_total\{method="GET",route="\/v1\/tickets\/:id",status="401"\} \d+/);
    expect(text).toMatch(/desk_http_requests_total\{method="GET",route="\/v1\/public\/csat\/:token",status="\d+"\}/);
    expect(text).toMatch(/desk_http_requests_total\{method="GET",route="\(unmatched\)",status="404"\}/);
    expect(await seriesCount()).toBe(before);
  });

  test("repeated requests count into one series per method, route template and status", () => {
    const labels = { method: "PATCH", route: "/v1/metrics-test/:id", status: "200" };
    const before = counterValue("desk_http_requests_total", labels);
    for (let i = 0; i < 4; i++)
      recordHttpRequest({ method: "PATCH", route: "/v1/metrics-test/:id", status: 200, ms: 1 });
    recordHttpRequest({ method: "PATCH", route: "/v1/metrics-test/:id", status: 404, ms: 1 });
    expect(counterValue("desk_http_requests_total", labels)).toBe(before + 4);
    expect(counterValue("desk_http_requests_total", { ...labels, status: "404" })).toBe(1);
  });

  test("the series are bounded in total: past the cap new label sets count into one overflow series", async () => {
    const lines = async () => (await renderMetrics()).split("\n").length;
    for (let i = 0; i < HTTP_SERIES_MAX; i++)
      recordHttpRequest({ method: "GET", route: `/v1/bound-test-${i}`, status: 200, ms: 1 });
    const full = await lines();
    const overflow = { method: "GET", route: "(overflow)", status: "2xx" };
    const overflowBefore = counterValue("desk_http_requests_total", overflow);
    for (let i = 0; i < 3000; i++) {
      recordHttpRequest({ method: "GET", route: `/v1/bound-more-${i}`, status: 200 + (i % 3), ms: 1 });
      incrementCounter("desk_bound_test_total", { id: String(i) });
    }
    expect(await lines()).toBeLessThan(full + MAX_SERIES_PER_METRIC + 60);
    expect(counterValue("desk_http_requests_total", overflow)).toBe(overflowBefore + 3000);
    expect(counterValue("desk_metrics_series_dropped_total")).toBeGreaterThan(0);
  });

  test("histogram buckets are cumulative, with +Inf, sum and count", async () => {
    for (const seconds of [0.0005, 0.003, 0.005, 20]) observeHistogram("desk_test_seconds", { kind: "a" }, seconds);
    const text = await renderMetrics();
    expect(text).toContain('desk_test_seconds_bucket{kind="a",le="0.001"} 1');
    expect(text).toContain('desk_test_seconds_bucket{kind="a",le="0.005"} 3');
    expect(text).toContain('desk_test_seconds_bucket{kind="a",le="10"} 3');
    expect(text).toContain('desk_test_seconds_bucket{kind="a",le="+Inf"} 4');
    expect(text).toContain('desk_test_seconds_count{kind="a"} 4');
    expect(text).toContain('desk_test_seconds_sum{kind="a"} 20.0085');
  });
});
