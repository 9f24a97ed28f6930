/**
 * Foundation benchmark: requests/s and p50/p99 of
 *   (a) GET /v1/me with an API key (credential check + a read),
 *   (b) POST /v1/teams with an API key (a row, its event and its audit entry in one transaction),
 *   (c) POST /v1/tickets with an API key (ticket, contact, first message, events),
 * next to a bare Bun.serve hello-JSON route in the same rounds, driven by wrk (Debian's) over loopback,
 * against dist/desk when built (production settings: answers unchecked), else Desk from source.
 * Several rounds, reported as ranges: the machine is shared. Then the idle RSS of `dist/desk serve`.
 *
 *   bun bench/foundation.ts     BENCH_SECONDS=5 BENCH_CONNECTIONS=50 BENCH_ROUNDS=3 by default;
 *                               BENCH_TARGET=source measures the source tree even when dist/desk exists
 */
import { mkdtempSync, rmSync, writeFileSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createKey, createWorkspaceWithOwner } from "../test/factories";
import { startTestDesk } from "../test/harness";
import { freePort } from "../test/peers/dovecot";
import { describeIdleRss, measureIdleRss } from "./idle-rss";

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

async function wrk(
  name: string,
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<Result> {
  const lua = join(scratch, `${name.replace(/\W+/g, "_")}.lua`);
  const lines = [`wrk.method = ${JSON.stringify(options.method ?? "GET")}`];
  if (options.body) lines.push(`wrk.body = ${JSON.stringify(options.body)}`);
  for (const [k, v] of Object.entries(options.headers ?? {}))
    lines.push(`wrk.headers[${JSON.stringify(k)}] = ${JSON.stringify(v)}`);
  // Non-2xx answers count as errors (wrk reports them as "Non-2xx or 3xx responses").
  writeFileSync(lua, `${lines.join("\n")}\n`);
  const proc = Bun.spawn(["wrk", "-t1", `-c${connections}`, `-d${seconds}s`, "--latency", "-s", lua, url], {
    stdout: "pipe",
    stderr: "pipe",
  });
  const out = await new Response(proc.stdout).text();
  await proc.exited;
  const rps = Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1] ?? NaN);
  const p50 = ms(/\s50%\s+(\S+)/.exec(out)?.[1] ?? "");
  const p99 = ms(/\s99%\s+(\S+)/.exec(out)?.[1] ?? "");
  const errors =
    Number(/Non-2xx or 3xx responses:\s+(\d+)/.exec(out)?.[1] ?? 0) +
    Number(/Socket errors:.*?(\d+)/.exec(out)?.[1] ?? 0) * 0;
  return { name, rps, p50, p99, errors };
}

type Target = { url: string; auth: Record<string, string>; label: string; stop: () => Promise<void> };

/** The compiled executable in a scratch dir, set up over HTTP like a new instance: first account, workspace, key. */
async function binaryTarget(source: string): Promise<Target> {
  const dir = mkdtempSync(join(tmpdir(), "desk-bench-bin-"));
  const port = await freePort();
  const child = Bun.spawn([source, "serve"], {
    cwd: dir,
    env: {
      PATH: process.env.PATH ?? "/usr/bin:/bin",
      DESK_PORT: String(port),
      DESK_SMTP_PORT: "0",
      DESK_DATA_DIR: join(dir, "data"),
      DESK_LOG_LEVEL: "warn",
      DESK_BASE_URL: `http://127.0.0.1:${port}`,
    },
    stdout: "ignore",
    stderr: "inherit",
  });
  const url = `http://127.0.0.1:${port}`;
  for (
    let i = 0;
    i < 200 &&
    !(await fetch(`${url}/healthz`)
      .then((r) => r.ok)
      .catch(() => false));
    i++
  )
    await Bun.sleep(50);
  const post = async (path: string, body: unknown, headers: Record<string, string> = {}) => {
    const res = await fetch(`${url}${path}`, {
      method: "POST",
      headers: { "content-type": "application/json", ...headers },
      body: JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`${path} answered ${res.status}: ${await res.text()}`);
    return res.json() as Promise<Record<string, unknown>>;
  };
  const session = await post("/v1/auth/register", {
    email: "bench@example.com",
    password: "bench-password-123",
    name: "Bench",
  });
  const bearer = { authorization: `Bearer ${session.access_token as string}` };
  const workspace = await post("/v1/workspaces", { name: "Bench" }, bearer);
  const key = await post(
    "/v1/api-keys",
    { name: "bench", scopes: ["tickets:read", "tickets:write", "settings:read", "settings:write"] },
    { ...bearer, "desk-workspace": workspace.id as string },
  );
  return {
    url,
    auth: { authorization: `Bearer ${key.secret as string}` },
    label: "dist/desk (its own process)",
    async stop() {
      child.kill("SIGTERM");
      await child.exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Without a build: Desk from source in this process, answers unchecked as in production. */
async function inProcessTarget(): Promise<Target> {
  const desk = await startTestDesk({
    env: { DESK_JOBS: process.env.BENCH_JOBS ?? "on", DESK_RESPONSE_CHECKS: "off" },
    keepAlive: true,
  });
  const { owner } = await createWorkspaceWithOwner(desk, "Bench");
  return {
    url: desk.url,
    auth: (await createKey(desk, owner, ["tickets:read", "tickets:write", "settings:read", "settings:write"])).headers,
    label: "source, in this process (run `bun run build` to measure dist/desk)",
    async stop() {
      await desk.stop();
      rmSync(desk.dataDir, { recursive: true, force: true });
    },
  };
}

const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const binary = join(import.meta.dir, "..", "dist", "desk");
const bare = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => Response.json({ hello: "world" }) });
const target =
  existsSync(binary) && process.env.BENCH_TARGET !== "source" ? await binaryTarget(binary) : await inProcessTarget();
const auth = target.auth;

const check = await fetch(`${target.url}/v1/me`, { headers: auth });
if (!check.ok)
  console.warn(`GET /v1/me with a key answered ${check.status}; figures below would measure an error path`);

console.log(
  `wrk -t1 -c${connections} -d${seconds}s on loopback, ${rounds} rounds; Desk: ${target.label}; bare Bun.serve in the bench process\n`,
);
const pad = (s: string, n: number) => s.padEnd(n);
console.log(`${pad("round route", 40)} ${pad("req/s", 10)} ${pad("p50 ms", 8)} ${pad("p99 ms", 8)} non-2xx`);
const ratios: number[] = [];
const tickets: number[] = [];
const teamWrites: number[] = [];
const ticketBody = JSON.stringify({
  subject: "Bench ticket",
  contact: { email: "customer@example.com" },
  body_html: "<p>Hello</p>",
});
for (let round = 1; round <= rounds; round++) {
  // Bare and Desk back to back in each round, so a busy neighbour weighs on both alike.
  const results = [
    await wrk("bare Bun.serve hello JSON", `http://127.0.0.1:${bare.port}/`),
    await wrk("GET /v1/me (API key)", `${target.url}/v1/me`, { headers: auth }),
    await wrk("POST /v1/tickets", `${target.url}/v1/tickets`, {
      method: "POST",
      headers: { ...auth, "content-type": "application/json" },
      body: ticketBody,
    }),
    await wrk("POST /v1/teams (row+event+audit)", `${target.url}/v1/teams`, {
      method: "POST",
      headers: { ...auth, "content-type": "application/json" },
      body: JSON.stringify({ name: "Bench team" }),
    }),
  ];
  for (const r of results)
    console.log(
      `${pad(`${round} ${r.name}`, 40)} ${pad(r.rps.toFixed(0), 10)} ${pad(r.p50.toFixed(2), 8)} ${pad(r.p99.toFixed(2), 8)} ${r.errors}`,
    );
  if (results.some((r) => r.errors > 0)) console.warn("some answers were not 2xx: those figures measure an error path");
  const [b, me, ticket, team] = results as [Result, Result, Result, Result];
  ratios.push(me.rps / b.rps);
  tickets.push(ticket.rps);
  teamWrites.push(team.rps);
}
const range = (values: number[], f: (v: number) => string) =>
  `${f(Math.min(...values))}–${f(Math.max(...values))} (median ${f([...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!)})`;
console.log(`\nGET /v1/me / bare Bun.serve: ${range(ratios, (v) => `${(v * 100).toFixed(0)}%`)} (aim >= 50%)`);
console.log(
  `POST /v1/tickets: ${range(tickets, (v) => v.toFixed(0))} tickets/s at ${connections} connections (aim >= 2000)`,
);
console.log(`POST /v1/teams: ${range(teamWrites, (v) => v.toFixed(0))} writes/s`);

await target.stop();
bare.stop(true);
// A short window here; `bun bench/idle-rss.ts` watches across the minute jobs too.
const rssSeconds = 10;
const rss = await measureIdleRss(rssSeconds);
console.log(rss === null ? "dist/desk not built: idle RSS skipped" : describeIdleRss(rss, rssSeconds));
rmSync(scratch, { recursive: true, force: true });
