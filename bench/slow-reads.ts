/**
 * GET /v1/me while another client runs broad searches, reports, the ticket list with a broad `q`
 * and a CSV export of every ticket over a 20,000-ticket workspace:
 * p99 of 20 clients alone, then beside the slow reads on the read pool (the bar: under 50 ms), then
 * beside the same reads on the main thread (DESK_READ_WORKERS=0, for comparison).
 * Run: bun bench/slow-reads.ts [tickets=20000] [seconds=5] (or BENCH_TICKETS=2000 bun bench/slow-reads.ts)
 */
import { createApiKey } from "../src/api-keys/api-keys.service";
import { commitPending } from "../src/db/tx";
import { createReadPool } from "../src/db/read-pool";
import { createTicket } from "../src/tickets/tickets.create";
import { createWorkspaceWithOwner } from "../test/factories";
import { startTestDesk } from "../test/harness";

const ticketCount = Number(process.argv[2] ?? process.env.BENCH_TICKETS ?? 20_000);
const seconds = Number(process.argv[3] ?? 5);
const CLIENTS = 20;
// As shipped: jobs and consumers run beside the load (BENCH_JOBS=off for the old figure).
const desk = await startTestDesk({
  env: { DESK_JOBS: process.env.BENCH_JOBS ?? "on", DESK_RESPONSE_CHECKS: "off" },
  keepAlive: true,
});
const { owner } = await createWorkspaceWithOwner(desk);
const { secret } = await createApiKey(owner.ctx, { name: "bench", scopes: ["tickets:read"] }, desk.deps);
const authorization = `Bearer ${secret}`;

// Common words in every ticket: the broad query FTS5 cannot rank cheaply.
const words = ["order", "refund", "the", "delivery", "account", "invoice", "please", "help", "late", "broken"];
let seed = 7;
const pick = () => {
  seed = (seed * 48271) % 2147483647;
  return words[seed % words.length]!;
};
const started = performance.now();
for (let i = 0; i < ticketCount; i++) {
  const text = Array.from({ length: 30 }, pick).join(" ");
  await createTicket(owner.ctx, { subject: `${pick()} ${pick()} ${i}`, body_html: `<p>${text}</p>` }, desk.deps);
  if (i % 500 === 499) {
    commitPending(desk.deps.db);
    await Bun.sleep(0);
  }
}
commitPending(desk.deps.db);
console.log(`seeded ${ticketCount} tickets in ${((performance.now() - started) / 1000).toFixed(1)} s`);

async function meClients(label: string): Promise<number> {
  const latencies: number[] = [];
  const deadline = performance.now() + seconds * 1000;
  await Promise.all(
    Array.from({ length: CLIENTS }, async () => {
      while (performance.now() < deadline) {
        const t = performance.now();
        const res = await fetch(`${desk.url}/v1/me`, { headers: { authorization } });
        await res.arrayBuffer();
        latencies.push(performance.now() - t);
      }
    }),
  );
  latencies.sort((a, b) => a - b);
  const p99 = latencies[Math.floor(latencies.length * 0.99)]!;
  console.log(
    `${label.padEnd(34)} ${(latencies.length / seconds).toFixed(0).padStart(6)} req/s  p50 ${latencies[Math.floor(latencies.length / 2)]!.toFixed(2)} ms  p99 ${p99.toFixed(2)} ms`,
  );
  return p99;
}

/** One client: broad searches, a year's report, a broad list and a full export, back to back, until `stop`. */
function slowClient(stop: () => boolean) {
  let reads = 0;
  let slowest = 0;
  const done = (async () => {
    const paths = [
      "/v1/search?q=the%20order",
      "/v1/search?q=refund%20please",
      "/v1/reports/overview",
      "/v1/tickets?q=the%20order&limit=100",
      // Every ticket, one pool read per page of 500, read to the end.
      "/v1/tickets/export.csv",
    ];
    while (!stop()) {
      const t = performance.now();
      const res = await fetch(`${desk.url}${paths[reads % paths.length]}`, { headers: { authorization } });
      await res.arrayBuffer();
      if (res.status !== 200) console.log(`slow read answered ${res.status}`);
      slowest = Math.max(slowest, performance.now() - t);
      reads++;
    }
  })();
  return { done, figures: () => `${reads} slow reads, slowest ${slowest.toFixed(0)} ms` };
}

async function beside(label: string): Promise<number> {
  let over = false;
  const client = slowClient(() => over);
  const p99 = await meClients(label);
  over = true;
  await client.done;
  console.log(`  (${client.figures()})`);
  return p99;
}

// The workers start on the first slow read (an idle desk runs none): start them before measuring.
await Promise.all(
  ["/v1/search?q=late", "/v1/reports/overview"].map((path) =>
    fetch(`${desk.url}${path}`, { headers: { authorization } }).then((res) => res.arrayBuffer()),
  ),
);
await meClients("warm-up");
const alone = await meClients("GET /v1/me alone");
const pooled = await beside("beside slow reads, read pool");
const pool = desk.deps.reads;
desk.deps.reads = createReadPool({ ...inThreadOptions(), workers: 0 });
const inThread = await beside("beside slow reads, main thread");
desk.deps.reads = pool;
console.log(
  `p99 ratio with/without slow reads: read pool ${(pooled / alone).toFixed(2)}x (bar: p99 < 50 ms: ${pooled < 50 ? "met" : "NOT met"}), main thread ${(inThread / alone).toFixed(2)}x`,
);
await desk.stop();

function inThreadOptions() {
  return {
    db: desk.deps.db,
    path: "",
    workers: 0,
    budgetMs: 10_000,
    spawn: () => {
      throw new Error("no workers");
    },
    logger: desk.deps.logger,
  };
}
