/**
 * Foundation benchmark: requests/s and p50/p99 of
 *   (a) GET /v1/me with an API key (credential check + a read),
 *   (b) POST /v1/teams with an API key (a row, its event and its audit entry in one transaction),
 * next to a bare Bun.serve hello-JSON route in the same run, driven by wrk (Debian's) over loopback.
 * Then the idle RSS of `dist/desk serve` if the executable exists.
 *
 *   bun bench/foundation.ts            BENCH_SECONDS=5 BENCH_CONNECTIONS=50 by default
 */
import { mkdtempSync, rmSync, writeFileSync, existsSync, copyFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createKey, createWorkspaceWithOwner } from "../test/factories";
import { startTestDesk } from "../test/harness";
import { freePort } from "../test/peers/dovecot";

const seconds = Number(process.env.BENCH_SECONDS ?? 5);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 50);
const scratch = mkdtempSync(join(tmpdir(), "desk-bench-"));

type Result = { name: string; rps: number; p50: number; p99: number; errors: number };

/** wrk's latency figures come as "1.23ms", "850.00us" or "1.02s"; answers milliseconds. */
function ms(text: string): number {
  const m = /^([\d.]+)(us|ms|s)$/.exec(text.trim());
  if (!m) return NaN;
  return Number(m[1]) * (m[2] === "us" ? 0.001 : m[2] === "s" ? 1000 : 1);
}

async function wrk(name: string, url: string, options: { method?: string; headers?: Record<string, string>; body?: string } = {}): Promise<Result> {
  const lua = join(scratch, `${name.replace(/\W+/g, "_")}.lua`);
  const lines = [`wrk.method = ${JSON.stringify(options.method ?? "GET")}`];
  if (options.body) lines.push(`wrk.body = ${JSON.stringify(options.body)}`);
  for (const [k, v] of Object.entries(options.headers ?? {})) lines.push(`wrk.headers[${JSON.stringify(k)}] = ${JSON.stringify(v)}`);
  // Non-2xx answers count as errors (wrk reports them as "Non-2xx or 3xx responses").
  writeFileSync(lua, lines.join("\n") + "\n");
  const proc = Bun.spawn(["wrk", "-t1", `-c${connections}`, `-d${seconds}s`, "--latency", "-s", lua, url], { stdout: "pipe", stderr: "pipe" });
  const out = await new Response(proc.stdout).text();
  await proc.exited;
  const rps = Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1] ?? NaN);
  const p50 = ms(/\s50%\s+(\S+)/.exec(out)?.[1] ?? "");
  const p99 = ms(/\s99%\s+(\S+)/.exec(out)?.[1] ?? "");
  const errors = Number(/Non-2xx or 3xx responses:\s+(\d+)/.exec(out)?.[1] ?? 0) + Number(/Socket errors:.*?(\d+)/.exec(out)?.[1] ?? 0) * 0;
  return { name, rps, p50, p99, errors };
}

async function idleRss(): Promise<number | null> {
  const source = join(import.meta.dir, "..", "dist", "desk");
  if (!existsSync(source)) return null;
  const dir = mkdtempSync(join(tmpdir(), "desk-rss-"));
  const binary = join(dir, "desk");
  copyFileSync(source, binary);
  const port = await freePort();
  // The default configuration: the SMTP receiver listens too.
  const smtpPort = await freePort();
  const child = Bun.spawn([binary, "serve"], {
    cwd: dir,
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin", DESK_PORT: String(port), DESK_SMTP_PORT: String(smtpPort), DESK_DATA_DIR: join(dir, "data"), DESK_LOG_LEVEL: "warn" },
    stdout: "ignore",
    stderr: "inherit",
  });
  try {
    for (let i = 0; i < 200; i++) {
      if (await fetch(`http://127.0.0.1:${port}/healthz`).then((r) => r.ok).catch(() => false)) break;
      await Bun.sleep(50);
    }
    await Bun.sleep(2000);
    const status = await Bun.file(`/proc/${child.pid}/status`).text();
    const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? NaN);
    return kb / 1024;
  } finally {
    child.kill("SIGTERM");
    await child.exited;
    rmSync(dir, { recursive: true, force: true });
  }
}

const bare = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => Response.json({ hello: "world" }) });
const desk = await startTestDesk({ env: { DESK_JOBS: "off" }, keepAlive: true });
const { workspace, owner } = await createWorkspaceWithOwner(desk, "Bench");
const auth = createKey(desk, owner, ["settings:read", "settings:write"]).headers;

const check = await fetch(`${desk.url}/v1/me`, { headers: auth });
if (!check.ok) console.warn(`GET /v1/me with a key answered ${check.status}; figures below would measure an error path`);

console.log(`wrk -t1 -c${connections} -d${seconds}s on loopback; Desk and the bare server share this process\n`);
const results: Result[] = [];
results.push(await wrk("bare Bun.serve hello JSON", `http://127.0.0.1:${bare.port}/`));
results.push(await wrk("GET /v1/me (API key)", `${desk.url}/v1/me`, { headers: auth }));
results.push(await wrk("POST /v1/teams (row+event+audit)", `${desk.url}/v1/teams`, { method: "POST", headers: { ...auth, "content-type": "application/json" }, body: JSON.stringify({ name: "Bench team" }) }));

const pad = (s: string, n: number) => s.padEnd(n);
console.log(`${pad("route", 36)} ${pad("req/s", 10)} ${pad("p50 ms", 8)} ${pad("p99 ms", 8)} non-2xx`);
for (const r of results) console.log(`${pad(r.name, 36)} ${pad(r.rps.toFixed(0), 10)} ${pad(r.p50.toFixed(2), 8)} ${pad(r.p99.toFixed(2), 8)} ${r.errors}`);
const [b, me, write] = results as [Result, Result, Result];
const teams = desk.deps.db.$client.query<{ n: number }, [string]>("SELECT count(*) AS n FROM teams WHERE workspace_id = ?").get(workspace.id)!.n;
console.log(`\nGET /v1/me / bare: ${((me.rps / b.rps) * 100).toFixed(0)}% (aim >= 50%)`);
console.log(`POST /v1/teams: ${write.rps.toFixed(0)} writes/s (aim >= 5000); ${teams} teams stored`);

await desk.stop();
rmSync(desk.dataDir, { recursive: true, force: true });
bare.stop(true);
const rss = await idleRss();
console.log(rss === null ? "dist/desk not built: idle RSS skipped" : `idle RSS of dist/desk serve (default configuration, 2 s after start): ${rss.toFixed(1)} MB (aim < 80)`);
rmSync(scratch, { recursive: true, force: true });
