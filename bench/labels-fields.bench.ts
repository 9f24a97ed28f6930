/**
 * Contact list filtering at scale: field.<key> filters, tag filters, sort by field, page presentation.
 * Seeds N contacts (default 100k) with three custom field values each and labels on a third.
 * Run: bun bench/labels-fields.bench.ts [contacts=100000] [iterations=200]
 */
import { rmSync } from "node:fs";
import { transact } from "../src/db/tx";
import { newId } from "../src/lib/ids";
import { createWorkspaceWithOwner } from "../test/factories";
import { startTestDesk } from "../test/harness";
import { createField } from "../src/custom-fields/fields.service";
import { createTag } from "../src/labels/labels.service";
import { listContacts } from "../src/contacts/contacts.service";
import { contacts } from "../src/contacts/contacts.table";
import { fieldFilterSql, parseFieldFilters } from "../src/custom-fields/fields.apply";
import { and, desc, eq, isNull } from "drizzle-orm";

const total = Number(process.argv[2] ?? 100_000);
const iterations = Number(process.argv[3] ?? 200);
const desk = await startTestDesk({ env: { DESK_JOBS: process.env.BENCH_JOBS ?? "on" }, keepAlive: true });
const { workspace, owner } = await createWorkspaceWithOwner(desk);
const ctx = owner.ctx;
const now = new Date().toISOString();

const plan = await createField(
  ctx,
  {
    entity: "contact",
    name: "Plan",
    type: "select",
    options: ["free", "pro", "team", "enterprise"].map((label) => ({ label })),
  },
  desk.deps,
);
const seats = await createField(ctx, { entity: "contact", name: "Seats", type: "number" }, desk.deps);
const city = await createField(ctx, { entity: "contact", name: "City", type: "text" }, desk.deps);
const vip = await createTag(ctx, { name: "vip" }, desk.deps);
const cities = ["Berlin", "Paris", "Lisbon", "Oslo", "Austin", "Kyoto", "Lagos", "Lima"];

const seedStart = performance.now();
const sqlite = desk.deps.db.$client;
const insertContact = sqlite.query(
  "INSERT INTO contacts (id, workspace_id, email, name, phone, notes, custom, blocked, created_at, updated_at) VALUES (?, ?, ?, ?, '', '', '{}', 0, ?, ?)",
);
const insertValue = sqlite.query(
  "INSERT INTO field_values (workspace_id, entity, record_id, field_id, value_text, value_num) VALUES (?, 'contact', ?, ?, ?, ?)",
);
const insertTag = sqlite.query(
  "INSERT INTO record_tags (workspace_id, kind, record_id, tag_id, created_at) VALUES (?, 'contacts', ?, ?, ?)",
);
// One change (the body only runs prepared statements), in the batch the services above left open.
await transact(desk.deps.db, () => {
  for (let i = 0; i < total; i++) {
    const id = newId();
    insertContact.run(id, workspace.id, `c${i}@example.test`, `Contact ${i}`, now, now);
    insertValue.run(workspace.id, id, plan.id, plan.options[i % 4]!.id, null);
    insertValue.run(workspace.id, id, seats.id, null, i % 500);
    insertValue.run(workspace.id, id, city.id, cities[i % cities.length]!, null);
    if (i % 3 === 0) insertTag.run(workspace.id, id, vip.id, now);
  }
});
sqlite.exec("ANALYZE");
console.log(
  `seeded ${total} contacts with 3 field values each in ${((performance.now() - seedStart) / 1000).toFixed(1)} s`,
);

async function measure(label: string, query: Record<string, unknown>) {
  const times: number[] = [];
  let rows = 0;
  for (let i = 0; i < iterations; i++) {
    const start = performance.now();
    rows = (await listContacts(desk.deps.db, ctx, { limit: 50, ...query }, desk.deps.ports)).data.length;
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  const p = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))]!.toFixed(2);
  console.log(`${label.padEnd(44)} rows ${String(rows).padStart(3)}  p50 ${p(0.5)} ms  p95 ${p(0.95)} ms`);
}

await measure("no filter (page of 50, presented)", {});
await measure("field.plan=enterprise (select eq)", { "field.plan": "enterprise" });
await measure("field.plan[none]=free,pro", { "field.plan[none]": "free,pro" });
await measure("field.seats[gt]=495 (rare number range)", { "field.seats[gt]": "495" });
await measure("field.city[contains]=sbo (text contains)", { "field.city[contains]": "sbo" });
await measure("tag=vip", { tag: "vip" });
await measure("tag=vip & field.plan=team", { tag: "vip", "field.plan": "team" });
await measure("field.seats=499 & field.city=Oslo (two fields)", { "field.seats": "499", "field.city": "Oslo" });

// The plans SQLite picks: a selective filter reads its records from the value index (id IN …).
async function explain(label: string, query: Record<string, string>) {
  const conditions = [eq(contacts.workspaceId, ctx.workspaceId), isNull(contacts.deletedAt)];
  for (const filter of parseFieldFilters(query))
    conditions.push(await fieldFilterSql(ctx, "contact", filter, contacts.id, desk.deps.db));
  const built = desk.deps.db
    .select({ id: contacts.id })
    .from(contacts)
    .where(and(...conditions))
    .orderBy(desc(contacts.id))
    .limit(51)
    .toSQL();
  const plan = sqlite
    .query<{ detail: string }, never[]>(`EXPLAIN QUERY PLAN ${built.sql}`)
    .all(...(built.params as never[]));
  console.log(`\nEXPLAIN QUERY PLAN ${label}\n${plan.map((r) => `  ${r.detail}`).join("\n")}`);
}
await explain("field.seats=499 & field.city=Oslo", { "field.seats": "499", "field.city": "Oslo" });
await explain("field.plan=enterprise (common: EXISTS per record)", { "field.plan": "enterprise" });

await desk.stop();
if (process.env.BENCH_KEEP) console.log(`kept ${desk.dataDir}`);
else rmSync(desk.dataDir, { recursive: true, force: true });
