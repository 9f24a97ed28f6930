/**
 * What each durable consumer costs per event on a workspace where it has nothing to do (no rule,
 * policy or feature configured): creates tickets with consumers stopped, then drains each consumer
 * alone and prints µs per event it read. Then the whole set at once, as the runner does. Jobs are
 * off here only so that each consumer can be drained on its own; Desk as shipped (jobs and
 * consumers on) closes the run: the same burst on a second desk running as shipped, and the time its
 * runner takes to handle every event (bench/reactions.ts compares whole request rates).
 *   bun bench/consumers.ts [tickets=2000]
 */
import { consumerLag, createConsumerRunner } from "../src/events/consumers";
import { modules } from "../src/registry";
import { createWorkspaceWithOwner } from "../test/factories";
import { startTestDesk } from "../test/harness";

const tickets = Number(process.argv[2] ?? 2000);
const desk = await startTestDesk({
  keepAlive: true,
  env: { DESK_JOBS: "off", DESK_LOG_LEVEL: "warn", DESK_RESPONSE_CHECKS: "off" },
});
const { owner } = await createWorkspaceWithOwner(desk);

async function burst(target: typeof desk, headers: Record<string, string>): Promise<void> {
  for (let i = 0; i < tickets; i++) {
    const res = await target.api("POST", "/v1/tickets", {
      headers,
      body: {
        subject: `Cannot sign in (${i})`,
        contact: { email: `customer-${i % 200}@example.test`, name: `Customer ${i % 200}` },
        body_html: `<p>Hello, I cannot sign in since this morning (attempt ${i}).</p>`,
      },
    });
    if (res.status !== 201) throw new Error(`create: ${res.status} ${res.text}`);
  }
}
const only = process.env.BENCH_ONLY;
const consumers = modules.flatMap((m) => m.consumers ?? []).filter((c) => !only || c.name.includes(only));
const runnerOf = (list: typeof consumers) =>
  createConsumerRunner({
    db: desk.deps.db,
    logger: desk.deps.logger,
    clock: desk.deps.clock,
    deps: desk.deps,
    consumers: list,
  });
// Time inside each handler, to tell the reaction's own work from the runner's per-event overhead.
const inHandle = new Map<string, number>();
const timed = consumers.map((c) => ({
  ...c,
  handle: async (...args: Parameters<typeof c.handle>) => {
    const start = performance.now();
    try {
      await c.handle(...args);
    } finally {
      inHandle.set(c.name, (inHandle.get(c.name) ?? 0) + performance.now() - start);
    }
  },
}));
const alone = timed.map((c) => ({ consumer: c, runner: runnerOf([c]) }));
// Each runner places its cursor at the newest event before the burst.
for (const { runner } of alone) await runner.drain();
const sqlite = desk.deps.db.$client;
const firstRowid = sqlite.query<{ n: number }, []>("SELECT coalesce(max(rowid), 0) AS n FROM events").get()!.n;
await burst(desk, owner.headers);
const events = sqlite.query<{ n: number }, []>(`SELECT count(*) AS n FROM events WHERE rowid > ${firstRowid}`).get()!.n;
console.log(`${tickets} tickets, ${events} events; µs per stored event, each consumer drained alone`);
let sum = 0;
for (const { consumer, runner } of alone) {
  const start = performance.now();
  const handled = await runner.drain();
  const us = ((performance.now() - start) * 1000) / events;
  sum += us;
  const handleUs = ((inHandle.get(consumer.name) ?? 0) * 1000) / events;
  console.log(
    `  ${consumer.name.padEnd(40)} ${us.toFixed(1).padStart(7)} µs/event, ${handleUs.toFixed(1).padStart(7)} in handle  (${handled} handled)`,
  );
}
console.log(`  ${"sum".padEnd(40)} ${sum.toFixed(1).padStart(7)} µs/event`);
await desk.stop();

// As shipped: the same burst with jobs and consumers running, then the wait until none is behind.
const shipped = await startTestDesk({ keepAlive: true, env: { DESK_LOG_LEVEL: "warn", DESK_RESPONSE_CHECKS: "off" } });
const shippedOwner = (await createWorkspaceWithOwner(shipped)).owner;
const burstStart = performance.now();
await burst(shipped, shippedOwner.headers);
const burstMs = performance.now() - burstStart;
const behind = async () =>
  (await consumerLag(shipped.deps.db, shipped.deps.clock.now())).some((lag) => lag.eventsBehind > 0);
while (await behind()) await Bun.sleep(10);
const caughtUpMs = performance.now() - burstStart - burstMs;
console.log(
  `as shipped (jobs and consumers on): ${tickets} tickets in ${(burstMs / 1000).toFixed(1)} s, consumers caught up ${(caughtUpMs / 1000).toFixed(2)} s after the last`,
);
await shipped.stop();
