/**
 * GET /v1/me throughput over a real socket, for an API key and for a signed-in person.
 * Run: bun bench/me.bench.ts [seconds=5] [concurrency=32]
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadConfig } from "../src/config/config";
import { startDesk } from "../src/start";
import { users } from "../src/auth/auth.table";
import { createSession, issueAccessToken } from "../src/auth/sessions";
import { createApiKey } from "../src/api-keys/api-keys.service";
import { createWorkspace } from "../src/workspaces/workspaces.service";
import { newId } from "../src/lib/ids";

const seconds = Number(process.argv[2] ?? 5);
const concurrency = Number(process.argv[3] ?? 32);
const dataDir = mkdtempSync(join(tmpdir(), "desk-bench-"));
const desk = await startDesk(
  loadConfig({ DESK_PORT: "0", DESK_SMTP_PORT: "0", DESK_DATA_DIR: dataDir, DESK_SECRET: "bench-secret-long-enough-0123456789", DESK_LOG_LEVEL: "silent", DESK_JOBS: "off" }),
  { webAssets: null },
);

const now = new Date().toISOString();
const userId = newId();
desk.deps.db.insert(users).values({ id: userId, email: "bench@example.test", name: "Bench", createdAt: now, updatedAt: now }).run();
const workspace = createWorkspace({ userId }, { name: "Bench" }, desk.deps);
const { session } = createSession(desk.deps.db, { userId, client: "web", mfaVerified: false, now: new Date() });
const accessToken = await issueAccessToken(desk.deps.tokens, session);
const ctx = { workspaceId: workspace.id, actor: { type: "user" as const, userId, sessionId: session.id }, role: "owner" as const, scopes: null, visibleTeams: "all" as const, requestId: "bench", ip: null };
const { secret } = createApiKey(ctx, { name: "bench", scopes: ["tickets:read"] }, desk.deps);

async function run(label: string, authorization: string, path = "/v1/me") {
  const url = `${desk.url}${path}`;
  const latencies: number[] = [];
  let errors = 0;
  const deadline = performance.now() + seconds * 1000;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < deadline) {
        const started = performance.now();
        const res = await fetch(url, { headers: { authorization } });
        await res.arrayBuffer();
        if (res.status !== 200) errors++;
        latencies.push(performance.now() - started);
      }
    }),
  );
  latencies.sort((a, b) => a - b);
  const pct = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * p))]!.toFixed(2);
  console.log(
    `${label.padEnd(16)} ${(latencies.length / seconds).toFixed(0).padStart(7)} req/s  p50 ${pct(0.5)} ms  p99 ${pct(0.99)} ms  errors ${errors}  (c=${concurrency}, ${seconds}s)`,
  );
}

await run("warm-up", `Bearer ${secret}`);
await run("healthz (floor)", "", "/healthz");
await run("api key", `Bearer ${secret}`);
await run("access token", `Bearer ${accessToken}`);
await desk.stop();
rmSync(dataDir, { recursive: true, force: true });
