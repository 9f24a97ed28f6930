/**
 * Webhook delivery benchmark: deliveries/s to a fast local receiver, and API p99 (GET /v1/webhooks over
 * real HTTP) with and without that delivery load. Run: bun bench/webhooks.ts [events=3000]
 */
import { transact } from "../src/db/tx";
import { anyEvent } from "../test/kit/events";
import { appendEvent } from "../src/events/append";
import { startReceiver } from "../test/kit/webhooks-receiver";
import { startTestDesk } from "../test/harness";
import { createWorkspaceWithOwner } from "../test/factories";

const EVENTS = Number(process.argv[2] ?? 3000);
const receiver = startReceiver({ quiet: true });
const desk = await startTestDesk({
  env: { DESK_ALLOWED_PRIVATE_HOSTS: "127.0.0.1", DESK_LOG_LEVEL: "silent" },
  keepAlive: true,
});
const { workspace, owner } = await createWorkspaceWithOwner(desk);
const created = await desk.api("POST", "/v1/webhooks", {
  headers: owner.headers,
  body: { url: receiver.url("bench"), events: ["ticket.created"] },
});
receiver.secrets.set("bench", created.body.secret);

async function apiLatencies(count: number): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < count; i++) {
    const started = performance.now();
    const res = await fetch(`${desk.url}/v1/webhooks`, { headers: owner.headers });
    await res.arrayBuffer();
    out.push(performance.now() - started);
  }
  return out.sort((a, b) => a - b);
}
const pct = (xs: number[], p: number) => xs[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))]!.toFixed(2);

const idle = await apiLatencies(500);
console.log(`API GET /v1/webhooks without delivery load: p50 ${pct(idle, 50)} ms, p99 ${pct(idle, 99)} ms`);

const succeeded = desk.deps.db.$client.query<{ n: number }, [string]>(
  "SELECT count(*) AS n FROM webhook_deliveries WHERE webhook_id = ? AND status = 'succeeded'",
);
const writeStart = performance.now();
for (let i = 0; i < EVENTS; i += 100) {
  await transact(desk.deps.db, async (tx) => {
    for (let j = i; j < Math.min(EVENTS, i + 100); j++)
      await appendEvent(tx, anyEvent("ticket.created"), {
        workspaceId: workspace.id,
        data: { ticket: { id: `t${j}`, subject: "Bench" } },
      });
  });
}
const writeMs = performance.now() - writeStart;
console.log(
  `stored ${EVENTS} events with their delivery rows and jobs in ${writeMs.toFixed(0)} ms (${((EVENTS / writeMs) * 1000).toFixed(0)}/s)`,
);

const started = performance.now();
const underLoad = apiLatencies(500);
let loaded: number[] = [];
void underLoad.then((xs) => (loaded = xs));
while (succeeded.get(created.body.id)!.n < EVENTS) await Bun.sleep(20);
const seconds = (performance.now() - started) / 1000;
await underLoad;
console.log(
  `delivered ${EVENTS} signed webhooks in ${seconds.toFixed(2)} s: ${(EVENTS / seconds).toFixed(0)} deliveries/s`,
);
console.log(`API GET /v1/webhooks during delivery load: p50 ${pct(loaded, 50)} ms, p99 ${pct(loaded, 99)} ms`);
const bad = receiver.received.filter((d) => !d.verified).length;
console.log(`receiver verified ${receiver.received.length - bad} of ${receiver.received.length} signatures`);
await desk.stop();
await receiver.stop();
process.exit(0);
