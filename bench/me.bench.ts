/**
 * GET /v1/me throughput over a real socket, for an API key and for a signed-in person, next to a
 * bare Bun.serve hello-JSON route in the same run (the aim: the API key's figure at >= 50% of it).
 * The load comes from a separate process (this file with `--client`), so the clients' own work does
 * not share the server's thread.
 * Run: bun bench/me.bench.ts [seconds=5] [concurrency=32]
 */
if (process.argv[2] === "--client") await client(process.argv.slice(3));

/** The load process: `concurrency` keep-alive clients for `seconds`; prints the latencies' figures as JSON. */
async function client([url, authorization, seconds, concurrency]: string[]): Promise<never> {
  const latencies: number[] = [];
  let errors = 0;
  const deadline = performance.now() + Number(seconds) * 1000;
  await Promise.all(
    Array.from({ length: Number(concurrency) }, async () => {
      while (performance.now() < deadline) {
        const started = performance.now();
        const res = await fetch(url!, { headers: authorization ? { authorization } : {} });
        await res.arrayBuffer();
        if (res.status !== 200) errors++;
        latencies.push(performance.now() - started);
      }
    }),
  );
  latencies.sort((a, b) => a - b);
  const pct = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * p))]!;
  console.log(JSON.stringify({ count: latencies.length, p50: pct(0.5), p99: pct(0.99), errors }));
  process.exit(0);
}

import { createApiKey } from "../src/api-keys/api-keys.service";
import { createWorkspaceWithOwner } from "../test/factories";
import { startTestDesk } from "../test/harness";

const seconds = Number(process.argv[2] ?? 5);
const concurrency = Number(process.argv[3] ?? 32);
// Production checks no answers against their schemas (DESK_RESPONSE_CHECKS defaults off there).
const desk = await startTestDesk({
  env: { DESK_JOBS: process.env.BENCH_JOBS ?? "on", DESK_RESPONSE_CHECKS: "off" },
  keepAlive: true,
});
const { owner } = await createWorkspaceWithOwner(desk);
const ctx = owner.ctx;
const accessToken = owner.token;
const { secret } = await createApiKey(ctx, { name: "bench", scopes: ["tickets:read"] }, desk.deps);

const bare = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => Response.json({ hello: "world" }) });

/** wrk (Debian's) when installed: a C client keeps up with the server on a 2-core box, where a Bun one does not. */
async function wrk(url: string, authorization: string): Promise<{ rate: number; p50: string; p99: string }> {
  const header = authorization ? ["-H", `authorization: ${authorization}`] : [];
  const proc = Bun.spawn(["wrk", "-t1", `-c${concurrency}`, `-d${seconds}s`, "--latency", ...header, url], {
    stdout: "pipe",
  });
  const out = await new Response(proc.stdout).text();
  const rate = Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1] ?? 0);
  if (/Non-2xx/.test(out)) console.log("  (wrk saw non-2xx answers)");
  return { rate, p50: /50%\s+(\S+)/.exec(out)?.[1] ?? "?", p99: /99%\s+(\S+)/.exec(out)?.[1] ?? "?" };
}

async function run(label: string, authorization: string, path = "/v1/me", base = desk.url): Promise<number> {
  if (Bun.which("wrk")) {
    const figures = await wrk(`${base}${path}`, authorization);
    console.log(
      `${label.padEnd(16)} ${figures.rate.toFixed(0).padStart(7)} req/s  p50 ${figures.p50}  p99 ${figures.p99}  (wrk -t1 -c${concurrency}, ${seconds}s)`,
    );
    return figures.rate;
  }
  const proc = Bun.spawn(
    ["bun", import.meta.path, "--client", `${base}${path}`, authorization, String(seconds), String(concurrency)],
    { stdout: "pipe", stderr: "inherit" },
  );
  const figures = JSON.parse(await new Response(proc.stdout).text()) as {
    count: number;
    p50: number;
    p99: number;
    errors: number;
  };
  const rate = figures.count / seconds;
  console.log(
    `${label.padEnd(16)} ${rate.toFixed(0).padStart(7)} req/s  p50 ${figures.p50.toFixed(2)} ms  p99 ${figures.p99.toFixed(2)} ms  errors ${figures.errors}  (c=${concurrency}, ${seconds}s)`,
  );
  return rate;
}

await run("warm-up", `Bearer ${secret}`);
const bareRate = await run("bare Bun.serve", "", "/", `http://127.0.0.1:${bare.port}`);
await run("healthz (floor)", "", "/healthz");
const keyRate = await run("api key", `Bearer ${secret}`);
await run("access token", `Bearer ${accessToken}`);
console.log(`GET /v1/me (API key) / bare Bun.serve: ${((keyRate / bareRate) * 100).toFixed(0)}% (aim >= 50%)`);
bare.stop(true);
await desk.stop();
