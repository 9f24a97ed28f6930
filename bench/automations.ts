/**
 * Ticket creation with 20 enabled automations against none, in the same run (issue 14: aim ≥ 0.8).
 * Each round creates N tickets with a first message through desk.fetch (the whole HTTP stack) in
 * one workspace, then drains the durable consumers (the automations engine runs there, so its cost
 * is counted); rounds alternate between the workspace with no automations and the one with 20.
 * The 20: 16 rules looking for something else (subject, custom field, tag; 4 of them on
 * ticket_updated, which the priority change wakes), 2 that hold for every ticket (a label, a
 * priority) and 2 on the sender's domain.
 * Run: bun bench/automations.ts [creates=1000] [rounds=3]
 */
import { startTestDesk } from "../test/harness";
import { createWorkspaceWithOwner, type Member } from "../test/factories";

const creates = Number(process.argv[2] ?? 1000);
const rounds = Number(process.argv[3] ?? 3);
// Response checks off, as in production (tests turn them on).
const desk = await startTestDesk({
  keepAlive: true,
  env: { DESK_JOBS: process.env.BENCH_JOBS ?? "on", DESK_LOG_LEVEL: "warn", DESK_RESPONSE_CHECKS: "off" },
});

async function call(member: Member, method: string, path: string, body?: unknown) {
  const res = await desk.fetch(
    new Request(`http://localhost${path}`, {
      method,
      headers: { ...member.headers, "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    }),
  );
  const text = await res.text();
  if (res.status >= 300) throw new Error(`${method} ${path} -> ${res.status} ${text.slice(0, 300)}`);
  return text ? JSON.parse(text) : null;
}

const plain = (await createWorkspaceWithOwner(desk)).owner;
const quiet = (await createWorkspaceWithOwner(desk)).owner;
const busy = (await createWorkspaceWithOwner(desk)).owner;
for (const owner of [plain, quiet, busy])
  await call(owner, "POST", "/v1/custom-fields", {
    entity: "ticket",
    name: "Plan",
    key: "plan",
    type: "select",
    options: [{ label: "Gold" }, { label: "Silver" }],
  });
const rule = (owner: Member, name: string, trigger: string, conditions: unknown[], actions: unknown[]) =>
  call(owner, "POST", "/v1/automations", { name, trigger, conditions, actions });
/**
 * `busy`, a typical set: most rules look for something else; each ticket matches two (a label, a
 * priority), whose ticket.updated wakes the ticket_updated rules. `quiet`: the same 20 rules, but
 * the two that match look for something else too (the engine's own cost, no action runs).
 */
for (const owner of [quiet, busy]) {
  const hits = owner === busy;
  for (let i = 0; i < 16; i++)
    await rule(
      owner,
      `miss ${i}`,
      i % 4 === 3 ? "ticket_updated" : "ticket_created",
      [
        { field: "subject", op: "contains", value: `never-${i}` },
        i % 2
          ? { field: "field.plan", op: "equals", value: "gold" }
          : { field: "tag", op: "equals", value: `nope-${i}` },
      ],
      [{ type: "add_tag", value: `miss-${i}` }],
    );
  await rule(
    owner,
    "label orders",
    "ticket_created",
    [{ field: "body", op: "contains", value: hits ? "order" : "refund" }],
    [{ type: "add_tag", value: "orders" }],
  );
  await rule(
    owner,
    "raise parcels",
    "ticket_created",
    [{ field: "subject", op: "contains", value: hits ? "parcel" : "invoice" }],
    [{ type: "set_priority", value: "high" }],
  );
  for (let i = 0; i < 2; i++)
    await rule(
      owner,
      `vip ${i}`,
      "ticket_created",
      [{ field: "from_email", op: "contains", value: `@vip-${i}.test` }],
      [{ type: "assign_team", value: "" }],
    );
}
const enabled = (await call(busy, "GET", "/v1/automations")).data.length;
await desk.consumers.drain();

let seq = 0;
/** One round: N creates then the consumer drain; per second by the wall clock and by CPU time (the box is shared). */
async function round(owner: Member): Promise<{ perSecond: number; perCpuSecond: number; drainMs: number }> {
  const start = performance.now();
  const cpu = process.cpuUsage();
  for (let i = 0; i < creates; i++) {
    seq++;
    await call(owner, "POST", "/v1/tickets", {
      subject: `Where is my parcel ${seq}`,
      contact: { email: `c${seq % 500}@customer.test` },
      body_html: "<p>My order has not arrived yet.</p>",
    });
  }
  const drainStart = performance.now();
  await desk.consumers.drain();
  const end = performance.now();
  const used = process.cpuUsage(cpu);
  return {
    perSecond: (creates / (end - start)) * 1000,
    perCpuSecond: (creates / (used.user + used.system)) * 1e6,
    drainMs: end - drainStart,
  };
}

await round(plain); // warm-up
await round(quiet);
await round(busy);
type Round = Awaited<ReturnType<typeof round>>;
const results: Record<"none" | "missing" | "matching", Round[]> = { none: [], missing: [], matching: [] };
const show = (r: Round, base: Round) =>
  `${r.perSecond.toFixed(0)}/s, ${r.perCpuSecond.toFixed(0)}/CPU-s (drain ${r.drainMs.toFixed(0)} ms; ratio ${(r.perSecond / base.perSecond).toFixed(2)} wall, ${(r.perCpuSecond / base.perCpuSecond).toFixed(2)} CPU)`;
for (let r = 0; r < rounds; r++) {
  const a = await round(plain);
  const q = await round(quiet);
  const b = await round(busy);
  results.none.push(a);
  results.missing.push(q);
  results.matching.push(b);
  console.log(
    `round ${r + 1}: none ${a.perSecond.toFixed(0)}/s, ${a.perCpuSecond.toFixed(0)}/CPU-s | ${enabled} matching none ${show(q, a)} | ${enabled}, two acting ${show(b, a)}`,
  );
}
const median = (xs: number[]) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)]!;
const sample = (await call(busy, "GET", "/v1/tickets?limit=1")).data[0];
console.log(
  `sample ticket: priority ${sample.priority}, tags ${sample.tags.map((t: { name: string }) => t.name).join(", ")}`,
);
const figure = (key: "missing" | "matching") => {
  const wall = median(results[key].map((r) => r.perSecond));
  const cpu = median(results[key].map((r) => r.perCpuSecond));
  const baseWall = median(results.none.map((r) => r.perSecond));
  const baseCpu = median(results.none.map((r) => r.perCpuSecond));
  return `${wall.toFixed(0)}/s (ratio ${(wall / baseWall).toFixed(2)}), ${cpu.toFixed(0)}/CPU-s (ratio ${(cpu / baseCpu).toFixed(2)})`;
};
console.log(
  `medians of ${rounds} rounds of ${creates} creates incl. consumer drain: none ${median(results.none.map((r) => r.perSecond)).toFixed(0)}/s, ${median(results.none.map((r) => r.perCpuSecond)).toFixed(0)}/CPU-s`,
);
console.log(`  ${enabled} enabled, matching none: ${figure("missing")}`);
console.log(`  ${enabled} enabled, two acting on every ticket: ${figure("matching")}`);
await desk.stop();
process.exit(0);
