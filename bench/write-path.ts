/**
 * The write path: POST /v1/tickets with a first message, for a new contact (found-or-created by
 * email) and for an existing one, through desk.fetch (in-process) and over a real socket.
 * Then the shared helpers alone (µs per call). Run: bun bench/write-path.ts [creates=2000]
 * Profile: bun --cpu-prof --cpu-prof-dir=/tmp/desk-prof bench/write-path.ts 3000
 */
import { rmSync } from "node:fs";
import { startTestDesk } from "../test/harness";
import { createWorkspaceWithOwner } from "../test/factories";
import { transact } from "../src/db/tx";
import { contactRefsOf, findOrCreateContactByEmail } from "../src/contacts/contacts.service";
import { presentContact } from "../src/contacts/contacts.present";
import { contactTicketCounts } from "../src/contacts/contacts.ticket-counts";
import { applyLabelWrite, labelsOf } from "../src/labels/labels.apply";
import { applyFieldWrite, fieldValuesOf } from "../src/custom-fields/fields.apply";

const creates = Number(process.argv[2] ?? 2000);
const desk = await startTestDesk({
  keepAlive: true,
  env: { DESK_JOBS: process.env.BENCH_JOBS ?? "on", DESK_LOG_LEVEL: "warn" },
});
const { owner } = await createWorkspaceWithOwner(desk);
// Experiment: BENCH_AUTOCHECKPOINT=0 keeps WAL checkpoints out of the requests' COMMITs.
if (process.env.BENCH_AUTOCHECKPOINT)
  desk.deps.db.$client.exec(`PRAGMA wal_autocheckpoint = ${Number(process.env.BENCH_AUTOCHECKPOINT)}`);
const headers = { ...owner.headers, "content-type": "application/json" };

type Send = (path: string, body: unknown) => Promise<number>;
const inProcess: Send = async (path, body) => {
  const res = await desk.fetch(
    new Request(`http://localhost${path}`, { method: "POST", headers, body: JSON.stringify(body) }),
  );
  await res.arrayBuffer();
  return res.status;
};
const overSocket: Send = async (path, body) => {
  const res = await fetch(`${desk.url}${path}`, { method: "POST", headers, body: JSON.stringify(body) });
  await res.arrayBuffer();
  return res.status;
};

const pct = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
let run = 0;
async function measure(name: string, send: Send, body: (i: number) => unknown) {
  run++;
  for (let i = 0; i < 50; i++) await send("/v1/tickets", body(-run * 1000 - i)); // warm-up
  const times: number[] = [];
  const start = performance.now();
  const cpuStart = process.cpuUsage();
  for (let i = 0; i < creates; i++) {
    const t = performance.now();
    const status = await send("/v1/tickets", body(run * 1_000_000 + i));
    times.push(performance.now() - t);
    if (status !== 201) throw new Error(`${name}: status ${status}`);
  }
  const seconds = (performance.now() - start) / 1000;
  const cpuMs = (process.cpuUsage(cpuStart).user + process.cpuUsage(cpuStart).system) / 1000 / creates;
  if (process.env.BENCH_TRACE) console.log(times.map((t) => t.toFixed(1)).join(" "));
  times.sort((a, b) => a - b);
  console.log(
    `${name.padEnd(52)} p50 ${pct(times, 50).toFixed(2).padStart(6)} ms  p95 ${pct(times, 95).toFixed(2).padStart(6)} ms  ${(creates / seconds).toFixed(0).padStart(5)}/s  cpu ${cpuMs.toFixed(2)} ms/op`,
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

console.log(
  `POST /v1/tickets with a first message, ${creates} sequential requests each (${navigator.hardwareConcurrency} cores)`,
);
await measure("in-process, new contact", inProcess, newContact);
await measure("in-process, existing contact", inProcess, existingContact);
await measure("socket, new contact", overSocket, newContact);
await measure("socket, existing contact", overSocket, existingContact);

// The shared helpers on their own (µs per call, inside a transaction like the write path).
const db = desk.deps.db;
const ctx = owner.ctx;
const ticket = (
  await desk.api("POST", "/v1/tickets", { headers, body: { ...newContact(9e9), tags: ["billing", "vip"] } })
).body as { id: string; contact: { id: string } };
const pageIds = db.$client
  .query<{ id: string }, []>("SELECT id FROM tickets ORDER BY rowid DESC LIMIT 50")
  .all()
  .map((r) => r.id);
async function micro(name: string, fn: (i: number) => unknown | Promise<unknown>) {
  const n = Number(process.env.BENCH_MICRO ?? 5000);
  for (let i = 0; i < 500; i++) await transact(db, async () => await fn(-i - 1));
  const start = performance.now();
  await transact(db, async () => {
    for (let i = 0; i < n; i++) await fn(i);
  });
  console.log(`  ${name.padEnd(56)} ${(((performance.now() - start) / n) * 1000).toFixed(1).padStart(7)} µs`);
}
console.log("\nhelpers, one transaction, µs per call");
let fresh = 0;
await micro(
  "findOrCreateContactByEmail, new contact",
  async () =>
    await transact(
      db,
      async (tx) =>
        await findOrCreateContactByEmail(
          tx,
          ctx,
          { email: `fresh-${process.pid}-${fresh++}@example.test`, name: "F" },
          desk.deps.ports,
        ),
    ),
);
await micro(
  "findOrCreateContactByEmail, existing contact",
  async () =>
    await transact(
      db,
      async (tx) =>
        await findOrCreateContactByEmail(tx, ctx, { email: "regular-1@example.test", name: "R" }, desk.deps.ports),
    ),
);
await micro("labelsOf, 1 ticket with 2 labels", async () => await labelsOf(db, "tickets", [ticket.id]));
await micro("labelsOf, page of 50 tickets", async () => await labelsOf(db, "tickets", pageIds));
await micro("labelsOf, no ids", async () => await labelsOf(db, "tickets", []));
await micro("fieldValuesOf, 1 ticket", async () => await fieldValuesOf(db, "ticket", [ticket.id]));
await micro("fieldValuesOf, page of 50 tickets", async () => await fieldValuesOf(db, "ticket", pageIds));
await micro("contactRefsOf, 1 contact", async () => await contactRefsOf(db, [ticket.contact.id]));
await micro(
  "applyLabelWrite, 2 existing labels (no change)",
  async () =>
    await transact(
      db,
      async (tx) => await applyLabelWrite(tx, ctx, "tickets", ticket.id, { tags: ["billing", "vip"] }, desk.deps.ports),
    ),
);
await micro(
  "applyFieldWrite, {}",
  async () => await transact(db, async (tx) => await applyFieldWrite(tx, ctx, "ticket", ticket.id, {})),
);
const contactRow = await transact(
  db,
  async (tx) => await findOrCreateContactByEmail(tx, ctx, { email: "regular-1@example.test" }, desk.deps.ports),
);
const countTickets = desk.deps.ports.get(contactTicketCounts);
await micro(
  "presentContact (reads labels, fields, ticket_count)",
  async () => await presentContact(db, countTickets, contactRow),
);

await desk.stop();
rmSync(desk.dataDir, { recursive: true, force: true });
