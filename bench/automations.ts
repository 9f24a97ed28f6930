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
  env: { DESK_JOBS: "off", DESK_LOG_LEVEL: "warn", DESK_RESPONSE_CHECKS: "off" },
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
const busy = (await createWorkspaceWithOwner(desk)).owner;
for (const owner of [plain, busy])
  await call(owner, "POST", "/v1/custom-fields", {
    entity: "ticket",
    name: "Plan",
    key: "plan",
    type: "select",
    options: [{ label: "Gold" }, { label: "Silver" }],
  });
const rule = (name: string, trigger: string, conditions: unknown[], actions: unknown[]) =>
  call(busy, "POST", "/v1/automations", { name, trigger, conditions, actions });
// A typical set: most rules look for something else; a ticket matches two (a label, a priority).
for (let i = 0; i < 16; i++)
  await rule(
    `miss ${i}`,
    i % 4 === 3 ? "ticket_updated" : "ticket_created",
    [
      { field: "subject", op: "contains", value: `never-${i}` },
      i % 2 ? { field: "field.plan", op: "equals", value: "gold" } : { field: "tag", op: "equals", value: `nope-${i}` },
    ],
    [{ type: "add_tag", value: `miss-${i}` }],
  );
await rule(
  "label orders",
  "ticket_created",
  [{ field: "body", op: "contains", value: "order" }],
  [{ type: "add_tag", value: "orders" }],
);
await rule(
  "raise parcels",
  "ticket_created",
  [{ field: "subject", op: "contains", value: "parcel" }],
  [{ type: "set_priority", value: "high" }],
);
for (let i = 0; i < 2; i++)
  await rule(
    `vip ${i}`,
    "ticket_created",
    [{ field: "from_email", op: "contains", value: `@vip-${i}.test` }],
    [{ type: "assign_team", value: "" }],
  );
const enabled = (await call(busy, "GET", "/v1/automations")).data.length;
await desk.consumers.drain();

let seq = 0;
async function round(owner: Member): Promise<{ perSecond: number; drainMs: number }> {
  const start = performance.now();
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
  return { perSecond: (creates / (end - start)) * 1000, drainMs: end - drainStart };
}

await round(plain); // warm-up
await round(busy);
const none: number[] = [];
const twenty: number[] = [];
for (let r = 0; r < rounds; r++) {
  const a = await round(plain);
  const b = await round(busy);
  none.push(a.perSecond);
  twenty.push(b.perSecond);
  console.log(
    `round ${r + 1}: none ${a.perSecond.toFixed(0)}/s (drain ${a.drainMs.toFixed(0)} ms), ${enabled} automations ${b.perSecond.toFixed(0)}/s (drain ${b.drainMs.toFixed(0)} ms), ratio ${(b.perSecond / a.perSecond).toFixed(2)}`,
  );
}
const median = (xs: number[]) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)]!;
const sample = (await call(busy, "GET", "/v1/tickets?limit=1")).data[0];
console.log(
  `sample ticket: priority ${sample.priority}, tags ${sample.tags.map((t: { name: string }) => t.name).join(", ")}`,
);
console.log(
  `tickets created per second incl. consumer drain (${creates} per round, median of ${rounds}): none ${median(none).toFixed(0)}, with ${enabled} enabled automations ${median(twenty).toFixed(0)}; ratio ${(median(twenty) / median(none)).toFixed(2)}`,
);
await desk.stop();
process.exit(0);
