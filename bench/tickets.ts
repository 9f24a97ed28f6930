/**
 * Ticket benchmark against a seeded data dir (see scripts/seed.ts):
 *   DESK_DATA_DIR=/tmp/desk-bench bun bench/tickets.ts      BENCH_ITERATIONS=200 BENCH_CREATES=2000
 * Measures p50/p95 through the whole HTTP stack in-process (auth, validation, presenters) of:
 * the 50 newest open tickets with two filters, a custom-field filter, counts, a two-word
 * full-text search (and the worst case: the two most common words), ticket creation with a first
 * message (per second, from one client and from BENCH_CLIENTS=16 at once), a reply. Prints EXPLAIN
 * QUERY PLAN of the list queries.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { RequestContext } from "../src/auth/context";
import { loadConfig } from "../src/config/config";
import { startDesk } from "../src/start";
import { buildTicketListQuery } from "../src/tickets/tickets.list";
import { TicketListQuery } from "../src/tickets/tickets.schemas";

const iterations = Number(process.env.BENCH_ITERATIONS ?? 200);
const creates = Number(process.env.BENCH_CREATES ?? 2000);
const config = loadConfig({
  ...process.env,
  DESK_PORT: "0",
  DESK_SMTP_PORT: "0",
  DESK_JOBS: process.env.BENCH_JOBS ?? "on",
  DESK_LOG_LEVEL: "warn",
});
const { workspace_id: workspaceId, api_key: apiKey } = JSON.parse(
  readFileSync(join(config.dataDir, "bench.json"), "utf8"),
) as { workspace_id: string; api_key: string };
const desk = await startDesk(config, { webAssets: null });
const sqlite = desk.deps.db.$client;
// Planner statistics for indexes added since the seed (a no-op when they are fresh).
sqlite.exec("PRAGMA optimize");
const headers = { authorization: `Bearer ${apiKey}`, "content-type": "application/json" };
const counts = sqlite
  .query<{ tickets: number; messages: number; contacts: number }, []>(
    "SELECT (SELECT count(*) FROM tickets) AS tickets, (SELECT max(rowid) FROM messages) AS messages, (SELECT count(*) FROM contacts) AS contacts",
  )
  .get()!;
console.log(`data: ${counts.tickets} tickets, ~${counts.messages} messages, ${counts.contacts} contacts`);

async function call(method: string, path: string, body?: unknown): Promise<unknown> {
  const res = await desk.fetch(
    new Request(`http://localhost${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    }),
  );
  const text = await res.text();
  if (res.status >= 300) throw new Error(`${method} ${path} -> ${res.status} ${text.slice(0, 300)}`);
  return JSON.parse(text);
}

const pct = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
async function measure(name: string, n: number, run: (i: number) => Promise<unknown>) {
  for (let i = 0; i < Math.min(10, n); i++) await run(i); // warm caches and statement cache
  const times: number[] = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    await run(i);
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  console.log(
    `${name.padEnd(58)} p50 ${pct(times, 50).toFixed(2).padStart(7)} ms   p95 ${pct(times, 95).toFixed(2).padStart(7)} ms`,
  );
}

const agent = sqlite
  .query<{ user_id: string }, [string]>("SELECT user_id FROM members WHERE workspace_id = ? AND role = 'agent' LIMIT 1")
  .get(workspaceId)!.user_id;
const listQueries: Record<string, string> = {
  "open + priority=high (50 newest)": "status=open&priority=high&limit=50",
  "open,pending + assignee (50 newest)": `status=open,pending&assignee=${agent}&limit=50`,
  "custom field seats>250 + open": "field.seats[gt]=250&status=open&limit=50",
  "severity sort, open": "status=open&sort=severity&limit=50",
};

console.log("\n-- reads (full HTTP stack, in-process) --");
for (const [name, query] of Object.entries(listQueries))
  await measure(`GET /v1/tickets ${name}`, iterations, () => call("GET", `/v1/tickets?${query}`));
await measure("GET /v1/tickets page 2 via cursor (open + high)", iterations, async () => {
  const first = (await call("GET", "/v1/tickets?status=open&priority=high&limit=50")) as { next_cursor: string };
  return call("GET", `/v1/tickets?status=open&priority=high&limit=50&cursor=${first.next_cursor}`);
});
await measure("GET /v1/tickets/counts", iterations, () => call("GET", "/v1/tickets/counts"));

// Two-word searches: word pairs from real subjects (mid-frequency), and the two most common words.
const subjects = sqlite
  .query<{ subject: string }, []>(
    "SELECT subject FROM tickets WHERE subject NOT LIKE 'Bench ticket%' ORDER BY rowid DESC LIMIT 400",
  )
  .all();
const pairs = subjects
  .map((s) =>
    s.subject
      .split(" ")
      .filter((w) => w.length > 3)
      .slice(0, 2)
      .join(" "),
  )
  .filter((p) => p.includes(" "));
await measure("GET /v1/search two words from a subject", iterations, (i) =>
  call("GET", `/v1/search?q=${encodeURIComponent(pairs[i % pairs.length]!)}`),
);
await measure("GET /v1/tickets?q= two words + status=open", iterations, (i) =>
  call("GET", `/v1/tickets?status=open&limit=50&q=${encodeURIComponent(pairs[i % pairs.length]!)}`),
);
await measure("GET /v1/search two most common words (guarded)", Math.min(50, iterations), () =>
  call("GET", "/v1/search?q=the%20to"),
);

console.log("\n-- writes --");
const contactEmails = sqlite
  .query<{ email: string }, []>("SELECT email FROM contacts ORDER BY rowid DESC LIMIT 1000")
  .all()
  .map((r) => r.email);
const createdIds: string[] = [];
let created = 0;
const createOne = async () => {
  const i = created++;
  const ticket = (await call("POST", "/v1/tickets", {
    subject: `Bench ticket ${i} cannot sign in`,
    contact: { email: contactEmails[i % contactEmails.length] },
    body_html: `<p>Hello, I cannot sign in since this morning (attempt ${i}).</p>`,
    kind: "reply",
    priority: "high",
  })) as { id: string };
  createdIds.push(ticket.id);
};
/** `clients` callers creating back to back, as many agents and integrations do at once. */
async function measureCreation(clients: number): Promise<void> {
  const startCreate = performance.now();
  // Process CPU per creation: holds up better than wall time on a machine shared with other work.
  const cpuBefore = process.cpuUsage();
  const each = Math.ceil(creates / clients);
  await Promise.all(
    Array.from({ length: clients }, async () => {
      for (let i = 0; i < each; i++) await createOne();
    }),
  );
  const seconds = (performance.now() - startCreate) / 1000;
  const cpu = process.cpuUsage(cpuBefore);
  const label = `POST /v1/tickets with first message, ${clients} client${clients > 1 ? "s" : ""}`;
  console.log(
    `${label.padEnd(58)} ${((each * clients) / seconds).toFixed(0)} tickets/s (${each * clients} created), cpu ${((cpu.user + cpu.system) / 1000 / (each * clients)).toFixed(2)} ms/ticket`,
  );
}
await measureCreation(1);
await measureCreation(Number(process.env.BENCH_CLIENTS ?? 16));
await measure("POST /v1/tickets/{id}/messages reply", iterations, (i) =>
  call("POST", `/v1/tickets/${createdIds[i % createdIds.length]}/messages`, {
    kind: "reply",
    body_html: `<p>Thanks, fixed (${i}).</p>`,
    status: "pending",
  }),
);

// The created tickets go (soft-deleted), so the next run meets the same data: left behind, they would
// pile up as the newest open tickets and slow the custom-field filter run after run.
for (let i = 0; i < createdIds.length; i += 500)
  await call("POST", "/v1/tickets/bulk", { ids: createdIds.slice(i, i + 500), delete: true });

console.log("\n-- EXPLAIN QUERY PLAN of the list queries --");
const ctx: RequestContext = {
  workspaceId,
  actor: { type: "api_key", apiKeyId: "bench", createdBy: agent },
  role: "admin",
  scopes: null,
  visibleTeams: "all",
  requestId: "bench",
  ip: null,
};
for (const [name, query] of Object.entries(listQueries)) {
  const params = Object.fromEntries(new URLSearchParams(query));
  const { select } = await buildTicketListQuery(desk.deps.db, ctx, TicketListQuery.parse(params));
  const compiled = select.toSQL();
  const plan = sqlite
    .query<{ detail: string }, Array<string | number | null>>(`EXPLAIN QUERY PLAN ${compiled.sql}`)
    .all(...(compiled.params as Array<string | number | null>));
  console.log(`${name}:`);
  for (const row of plan) console.log(`   ${row.detail}`);
  if (plan.some((r) => /^SCAN tickets\b/.test(r.detail) && !/USING/.test(r.detail))) console.log("   !! full scan");
}
await desk.stop();
