/**
 * GET /v1/me throughput over a real socket, for an API key and for a signed-in person.
 * Run: bun bench/me.bench.ts [seconds=5] [concurrency=32]
 */
import { createApiKey } from "../src/api-keys/api-keys.service";
import { createWorkspaceWithOwner } from "../test/factories";
import { startTestDesk } from "../test/harness";

const seconds = Number(process.argv[2] ?? 5);
const concurrency = Number(process.argv[3] ?? 32);
const desk = await startTestDesk({ env: { DESK_JOBS: "off" }, keepAlive: true });
const { owner } = await createWorkspaceWithOwner(desk);
const ctx = owner.ctx;
const accessToken = owner.token;
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
