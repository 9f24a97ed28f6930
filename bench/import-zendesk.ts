/**
 * A Zendesk import at scale: `bun bench/import-zendesk.ts` (BENCH_TICKETS=100000 BENCH_COMMENTS=5).
 * Runs Desk as its own process (from source) against the fake Zendesk of test/peers (tickets and
 * comments generated on demand, so the vendor side holds nothing per record), imports the account
 * through POST /v1/imports, and prints tickets and messages per second and Desk's peak RSS (VmHWM);
 * then re-runs the import with nothing changed and prints how long that took. The bar: 100k tickets
 * with 500k messages in under 15 minutes with peak RSS under 300 MB; the re-run under a minute.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort } from "../test/peers/dovecot";
import { startFakeZendesk } from "../test/peers/fake-zendesk";

type Job = { status: string; progress: { phase: string }; counts: Record<string, number> };
const TICKETS = Number(process.env.BENCH_TICKETS ?? 100_000);
const COMMENTS = Number(process.env.BENCH_COMMENTS ?? 5);
const CUSTOMERS = 50;

const work = mkdtempSync(join(tmpdir(), "desk-bench-import-"));
const zd = startFakeZendesk({ generated: { tickets: TICKETS, commentsPerTicket: COMMENTS } });
zd.users.push(
  {
    id: 1,
    name: "Agent",
    email: "agent@bench.test",
    role: "agent",
    organization_id: null,
    phone: null,
    updated_at: "2020-01-01T00:00:00Z",
  },
  ...Array.from({ length: CUSTOMERS }, (_, i) => ({
    id: 1000 + i,
    name: `Customer ${i}`,
    email: `customer${i}@bench.test`,
    role: "end-user" as const,
    organization_id: null,
    phone: null,
    updated_at: "2020-01-01T00:00:00Z",
  })),
);
const port = await freePort();
const base = `http://127.0.0.1:${port}`;
const desk = Bun.spawn(["bun", join(import.meta.dir, "..", "src", "main.ts"), "serve"], {
  cwd: work,
  env: {
    PATH: process.env.PATH ?? "/usr/bin:/bin",
    HOME: process.env.HOME ?? work,
    DESK_DATA_DIR: join(work, "data"),
    DESK_HOST: "127.0.0.1",
    DESK_PORT: String(port),
    DESK_SMTP_PORT: "0",
    DESK_SECRET: "bench-import-secret-that-is-long-enough",
    DESK_LOG_LEVEL: "warn",
    DESK_BACKUP_INTERVAL: "off",
    DESK_ALLOWED_PRIVATE_HOSTS: "127.0.0.1",
  },
  stdout: "inherit",
  stderr: "inherit",
});
const statusMb = (field: string) => {
  const status = readFileSync(`/proc/${desk.pid}/status`, "utf8");
  return Number(status.match(new RegExp(`${field}:\\s+(\\d+) kB`))?.[1] ?? 0) / 1024;
};
/** The kernel's peak RSS includes the database file's pages SQLite maps (mmap_size 256 MB) and its page cache. */
const peakRss = () => statusMb("VmHWM");
/** Anonymous memory (heap, page cache) sampled while the import runs: what the import itself holds. */
let peakAnon = 0;
const sampleAnon = () => {
  peakAnon = Math.max(peakAnon, statusMb("RssAnon"));
  return peakAnon;
};
try {
  for (let i = 0; i < 400; i++) {
    if (
      await fetch(`${base}/healthz`).then(
        (r) => r.ok,
        () => false,
      )
    )
      break;
    await Bun.sleep(50);
  }
  const json = { "content-type": "application/json" };
  const session = (await (
    await fetch(`${base}/v1/auth/register`, {
      method: "POST",
      headers: json,
      body: JSON.stringify({ email: "owner@bench.test", password: "correct horse battery", name: "Owner" }),
    })
  ).json()) as { access_token: string };
  const user = { ...json, authorization: `Bearer ${session.access_token}` };
  const workspace = (await (
    await fetch(`${base}/v1/workspaces`, { method: "POST", headers: user, body: JSON.stringify({ name: "Bench" }) })
  ).json()) as { id: string };
  const headers = { ...user, "DESK-Workspace": workspace.id };
  const body = JSON.stringify({
    source: "zendesk",
    options: {
      subdomain: "bench",
      email: zd.email,
      api_token: zd.token,
      base_url: zd.url,
      requests_per_minute: 100_000,
      export_requests_per_minute: 100_000,
    },
  });
  const rssBefore = peakRss();
  const run = async () => {
    const t0 = performance.now();
    const response = await fetch(`${base}/v1/imports`, { method: "POST", headers, body });
    if (response.status !== 202)
      throw new Error(`POST /v1/imports answered ${response.status}: ${await response.text()}`);
    const started = (await response.json()) as { id: string };
    let job = {} as Job;
    let lastPrint = 0;
    for (;;) {
      job = (await (await fetch(`${base}/v1/imports/${started.id}`, { headers })).json()) as Job;
      sampleAnon();
      if (job.status !== "queued" && job.status !== "running") break;
      if (performance.now() - lastPrint > 10_000) {
        lastPrint = performance.now();
        console.log(
          `  ${((performance.now() - t0) / 1000).toFixed(0)} s: ${job.progress.phase} ${job.counts.tickets} tickets, ${job.counts.messages} messages, peak RSS ${peakRss().toFixed(0)} MB (anonymous ${sampleAnon().toFixed(0)} MB)`,
        );
      }
      await Bun.sleep(250);
    }
    return { job, seconds: (performance.now() - t0) / 1000 };
  };
  console.log(
    `importing ${TICKETS} tickets with ${TICKETS * COMMENTS} messages (RSS after start ${rssBefore.toFixed(0)} MB)`,
  );
  const first = await run();
  if (!first.job.counts) throw new Error(`import answered ${JSON.stringify(first.job)}`);
  const c = first.job.counts;
  console.log(
    `first run: ${first.job.status} in ${first.seconds.toFixed(1)} s: ${c.tickets} tickets (${(c.tickets / first.seconds).toFixed(0)}/s), ${c.messages} messages (${(c.messages / first.seconds).toFixed(0)}/s), failed ${c.failed}; peak RSS ${peakRss().toFixed(0)} MB, of it anonymous at most ${sampleAnon().toFixed(0)} MB (the rest is the database file SQLite maps)`,
  );
  const again = await run();
  console.log(
    `re-run with nothing changed: ${again.job.status} in ${again.seconds.toFixed(1)} s (tickets written ${again.job.counts.tickets}); peak RSS ${peakRss().toFixed(0)} MB`,
  );
} finally {
  desk.kill("SIGTERM");
  await desk.exited;
  zd.stop();
  rmSync(work, { recursive: true, force: true });
}
