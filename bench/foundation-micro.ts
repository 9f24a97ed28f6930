/**
 * In-process per-request cost (no sockets): loops desk.fetch on /healthz, GET /v1/me with an API
 * key and POST /v1/teams, printing microseconds per request. Profile with `bun --cpu-prof`.
 *
 *   bun bench/foundation-micro.ts [iterations=20000]
 */
import { rmSync } from "node:fs";
import { createKey, createWorkspaceWithOwner } from "../test/factories";
import { startTestDesk } from "../test/harness";

const iterations = Number(process.argv[2] ?? 20000);
const desk = await startTestDesk({ env: { DESK_JOBS: process.env.BENCH_JOBS ?? "on" }, keepAlive: true });
const { owner } = await createWorkspaceWithOwner(desk);
const { authorization } = (await createKey(desk, owner, ["settings:read", "settings:write"])).headers;

/** BENCH_ONLY="/v1/me" limits the run to the labels containing it (for profiling one route). */
const only = process.env.BENCH_ONLY;

async function measure(label: string, make: (i: number) => Request, expect: number) {
  if (only && !label.includes(only)) return;
  for (let i = 0; i < 500; i++) await (await desk.fetch(make(i))).arrayBuffer();
  const started = performance.now();
  for (let i = 0; i < iterations; i++) {
    // Each request in its own event-loop turn, as requests arriving over sockets are.
    await new Promise((resolve) => setImmediate(resolve));
    const res = await desk.fetch(make(i));
    await res.arrayBuffer();
    if (res.status !== expect) throw new Error(`${label}: ${res.status} ${await res.text()}`);
  }
  const us = ((performance.now() - started) * 1000) / iterations;
  console.log(`${label.padEnd(18)} ${us.toFixed(1)} us/request`);
}

const base = "http://127.0.0.1";
await measure("GET /healthz", () => new Request(`${base}/healthz`), 200);
await measure("GET /v1/me", () => new Request(`${base}/v1/me`, { headers: { authorization } }), 200);
await measure(
  "POST /v1/teams",
  (i) =>
    new Request(`${base}/v1/teams`, {
      method: "POST",
      headers: { authorization, "content-type": "application/json" },
      body: JSON.stringify({ name: `Team ${i}-${Math.random()}` }),
    }),
  201,
);
await desk.stop();
rmSync(desk.dataDir, { recursive: true, force: true });
