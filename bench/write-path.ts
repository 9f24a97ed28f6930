/**
 * The write path: POST /v1/tickets with a first message, for a new contact (found-or-created by
 * email) and for an existing one, through desk.fetch (in-process) and over a real socket.
 * Run: bun bench/write-path.ts [creates=2000]
 * Profile: bun --cpu-prof --cpu-prof-dir=/tmp/desk-prof bench/write-path.ts 3000
 */
import { rmSync } from "node:fs";
import { startTestDesk } from "../test/harness";
import { createWorkspaceWithOwner } from "../test/factories";

const creates = Number(process.argv[2] ?? 2000);
const desk = await startTestDesk({ keepAlive: true, env: { DESK_JOBS: "off", DESK_LOG_LEVEL: "warn" } });
const { owner } = await createWorkspaceWithOwner(desk);
const headers = { ...owner.headers, "content-type": "application/json" };

type Send = (path: string, body: unknown) => Promise<number>;
const inProcess: Send = async (path, body) => {
  const res = await desk.fetch(new Request(`http://localhost${path}`, { method: "POST", headers, body: JSON.stringify(body) }));
  await res.arrayBuffer();
  return res.status;
};
const overSocket: Send = async (path, body) => {
  const res = await fetch(`${desk.url}${path}`, { method: "POST", headers, body: JSON.stringify(body) });
  await res.arrayBuffer();
  return res.status;
};

const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
let run = 0;
async function measure(name: string, send: Send, body: (i: number) => unknown) {
  run++;
  for (let i = 0; i < 50; i++) await send("/v1/tickets", body(-run * 1000 - i)); // warm-up
  const times: number[] = [];
  const start = performance.now();
  for (let i = 0; i < creates; i++) {
    const t = performance.now();
    const status = await send("/v1/tickets", body(run * 1_000_000 + i));
    times.push(performance.now() - t);
    if (status !== 201) throw new Error(`${name}: status ${status}`);
  }
  const seconds = (performance.now() - start) / 1000;
  if (process.env.BENCH_TRACE) console.log(times.map((t) => t.toFixed(1)).join(" "));
  times.sort((a, b) => a - b);
  console.log(
    `${name.padEnd(52)} p50 ${pct(times, 50).toFixed(2).padStart(6)} ms  p95 ${pct(times, 95).toFixed(2).padStart(6)} ms  ${(creates / seconds).toFixed(0).padStart(5)}/s`,
  );
}

const newContact = (i: number) => ({
  subject: `Cannot sign in (${i})`,
  contact: { email: `customer-${i}@example.test`, name: `Customer ${i}` },
  body_html: `<p>Hello, I cannot sign in since this morning (attempt ${i}).</p>`,
});
const existingContact = (i: number) => ({
  subject: `Cannot sign in again (${i})`,
  contact: { email: `regular-${Math.abs(i) % 50}@example.test`, name: "Regular" },
  body_html: `<p>Hello again (attempt ${i}).</p>`,
});

console.log(`POST /v1/tickets with a first message, ${creates} sequential requests each (${navigator.hardwareConcurrency} cores)`);
await measure("in-process, new contact", inProcess, newContact);
await measure("in-process, existing contact", inProcess, existingContact);
await measure("socket, new contact", overSocket, newContact);
await measure("socket, existing contact", overSocket, existingContact);

await desk.stop();
rmSync(desk.dataDir, { recursive: true, force: true });
