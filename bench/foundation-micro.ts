/**
 * In-process per-request cost (no sockets): loops desk.fetch on /healthz, GET /v1/me with an API
 * key and POST /v1/teams, printing microseconds per request. Profile with `bun --cpu-prof`.
 *
 *   bun bench/foundation-micro.ts [iterations=20000]
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadConfig } from "../src/config/config";
import { startDesk } from "../src/start";
import { createWorkspace } from "../src/workspaces/workspaces.service";
import { createApiKey } from "../src/api-keys/api-keys.service";
import { users } from "../src/auth/auth.table";
import { newId } from "../src/lib/ids";

const iterations = Number(process.argv[2] ?? 20000);
const dataDir = mkdtempSync(join(tmpdir(), "desk-micro-"));
const desk = await startDesk(
  loadConfig({ DESK_PORT: "0", DESK_SMTP_PORT: "0", DESK_DATA_DIR: dataDir, DESK_SECRET: "bench-secret-long-enough-0123456789", DESK_LOG_LEVEL: "silent", DESK_JOBS: "off" }),
  { webAssets: null },
);
const now = new Date().toISOString();
const userId = newId();
desk.deps.db.insert(users).values({ id: userId, email: "micro@example.test", name: "Micro", createdAt: now, updatedAt: now }).run();
const workspace = createWorkspace({ userId }, { name: "Micro" }, desk.deps);
const ctx = { workspaceId: workspace.id, actor: { type: "user" as const, userId, sessionId: "micro" }, role: "owner" as const, scopes: null, visibleTeams: "all" as const, requestId: "micro", ip: null };
const { secret } = createApiKey(ctx, { name: "micro", scopes: ["settings:read", "settings:write"] }, desk.deps);
const authorization = `Bearer ${secret}`;

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
await measure("POST /v1/teams", (i) => new Request(`${base}/v1/teams`, { method: "POST", headers: { authorization, "content-type": "application/json" }, body: JSON.stringify({ name: `Team ${i}-${Math.random()}` }) }), 201);
await desk.stop();
rmSync(dataDir, { recursive: true, force: true });
