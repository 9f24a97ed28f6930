/**
 * Semantic search at 100,000 embedded documents, and the embedding backfill rate, against the local
 * OpenAI-compatible fake (test/peers/fake-ai.ts) answering 384-number vectors clustered by topic.
 * Prints: tickets embedded per second (consumer marks + batched jobs + stores), the vector scan
 * alone (`nearest`, in process) and the whole GET /v1/ai/search (full text, the query's embedding
 * round trip, the scan, fusion, visibility, presenting) as p50 / p95 / max.
 * Run: bun bench/semantic-search.ts  (DOCS=100000 TICKETS=3000 QUERIES=200 DIMS=384)
 * Aim: p95 < 50 ms, no query over 200 ms.
 */
import { addMember, createWorkspaceWithOwner } from "../test/factories";
import { AI_REQUESTS_PER_MINUTE } from "../src/ai/ai.budget";
import { startTestDesk } from "../test/harness";
import { fakeAiEnv, startFakeAi } from "../test/peers/fake-ai";
import { customerTicket } from "../test/kit/ai";
import { newId } from "../src/lib/ids";
import { untilDurable, transact } from "../src/db/tx";
import { nearest, packVector } from "../src/semantic-search/semantic.index";

const DOCS = Number(process.env.DOCS ?? 100_000);
const TICKETS = Number(process.env.TICKETS ?? 3000);
const QUERIES = Number(process.env.QUERIES ?? 200);
const DIMS = Number(process.env.DIMS ?? 384);
const TOPICS = 300;

/** A small deterministic generator (mulberry32). */
function random(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const next = random(7);
const topics = Array.from({ length: TOPICS }, () => Array.from({ length: DIMS }, () => next() - 0.5));
const hash = (text: string) => {
  let h = 2166136261;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619);
  return h >>> 0;
};
/** A text's vector: its topic (from the text's hash) plus noise, as real embeddings cluster by subject. */
function vectorOf(text: string): number[] {
  const h = hash(text);
  const noise = random(h);
  return topics[h % TOPICS]!.map((x) => x + (noise() - 0.5) * 0.8);
}

const fake = await startFakeAi();
fake.embedding = vectorOf;
const desk = await startTestDesk({ env: fakeAiEnv(fake), keepAlive: true });
const { workspace, owner } = await createWorkspaceWithOwner(desk);
const words = [
  "refund",
  "parcel",
  "password",
  "invoice",
  "login",
  "delivery",
  "broken",
  "upgrade",
  "export",
  "billing",
];

// 1. Backfill rate: tickets created, then marked and embedded by the consumer and the jobs.
let started = performance.now();
for (let i = 0; i < TICKETS; i++)
  await customerTicket(desk, owner, {
    subject: `${words[i % words.length]} question ${i}`,
    body: `Hello, about ${words[(i * 7) % words.length]} number ${i}: it does not work as I expected.`,
  });
const createdMs = performance.now() - started;
started = performance.now();
await desk.consumers.drain();
// The embedding job waits EMBED_DEBOUNCE_MS after the first change: start it (and the backfill's) now.
for (let round = 0; round < 2; round++) {
  desk.deps.db.$client.run(
    "UPDATE jobs SET run_at = '2000-01-01T00:00:00.000Z' WHERE kind LIKE 'semantic.%' AND state = 'queued'",
  );
  await desk.jobs.drain();
}
const embedMs = performance.now() - started;
const embeddedTickets = desk.deps.db.$client
  .query<{ n: number }, [string]>(
    "SELECT count(*) AS n FROM semantic_vectors WHERE workspace_id = ? AND vector IS NOT NULL",
  )
  .get(workspace.id)!.n;
const calls = fake.requests.filter((r) => r.path.endsWith("/embeddings")).length;
console.log(
  `backfill: ${embeddedTickets} tickets embedded in ${(embedMs / 1000).toFixed(2)} s = ${Math.round(embeddedTickets / (embedMs / 1000))} tickets/s (${calls} provider calls; creating them took ${(createdMs / 1000).toFixed(2)} s)`,
);

// 2. Fill the index to DOCS documents (stored as the job stores them, written directly for speed).
started = performance.now();
const insert = desk.deps.db.$client.prepare(
  "INSERT INTO semantic_vectors (workspace_id, kind, doc_id, model, vector, source_text, seq, embedded_at) VALUES (?, 'ticket', ?, 'text-embedding-3-small', ?, NULL, ?, '2026-01-01T00:00:00.000Z')",
);
// One change of the desk's turn (group commit owns the transaction).
await transact(desk.deps.db, async () => {
  for (let i = embeddedTickets; i < DOCS; i++)
    insert.run(workspace.id, newId(), packVector(vectorOf(`filler ${i}`)), 1_000_000 + i);
});
await untilDurable(desk.deps.db);
console.log(`filled to ${DOCS} documents of ${DIMS} numbers in ${((performance.now() - started) / 1000).toFixed(1)} s`);

const stats = (times: number[]) => {
  const sorted = [...times].sort((a, b) => a - b);
  const at = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!.toFixed(1);
  return `p50 ${at(0.5)} ms, p95 ${at(0.95)} ms, max ${sorted.at(-1)!.toFixed(1)} ms`;
};
const queryText = (i: number) => `${words[i % words.length]} ${words[(i * 3) % words.length]} problem ${i}`;

// The first query finds the index cold: it answers at once (full text) and loads in the background.
started = performance.now();
const firstRoute = await desk.api("GET", "/v1/ai/search?q=refund", { headers: owner.headers });
console.log(
  `first query (index cold): ${(performance.now() - started).toFixed(1)} ms, mode ${firstRoute.headers.get("desk-search-mode")}`,
);
while (
  !(await nearest(desk.deps.db, workspace.id, "text-embedding-3-small", vectorOf("warm up"), {
    limit: 1,
    minScore: 0,
    kind: "ticket",
    at: Date.now(),
  }))
)
  await Bun.sleep(5);
console.log(`index loaded in the background after ${(performance.now() - started).toFixed(0)} ms`);

const scan: number[] = [];
for (let i = 0; i < QUERIES; i++) {
  const q = vectorOf(queryText(i));
  const t = performance.now();
  await nearest(desk.deps.db, workspace.id, "text-embedding-3-small", q, {
    limit: 50,
    minScore: 0.2,
    kind: "ticket",
    at: Date.now(),
  });
  scan.push(performance.now() - t);
}
console.log(`vector scan (nearest, ${DOCS} docs): ${stats(scan)}`);

// Each person may ask for AI_REQUESTS_PER_MINUTE answers a minute: the queries take turns among enough viewers.
const readers = await Promise.all(
  Array.from({ length: Math.ceil(QUERIES / (AI_REQUESTS_PER_MINUTE - 5)) }, () =>
    addMember(desk, workspace.id, "viewer"),
  ),
);
const route: number[] = [];
let hybrid = 0;
for (let i = 0; i < QUERIES; i++) {
  const t = performance.now();
  const res = await desk.api("GET", `/v1/ai/search?q=${encodeURIComponent(queryText(i))}`, {
    headers: readers[i % readers.length]!.headers,
  });
  route.push(performance.now() - t);
  if (res.status !== 200) throw new Error(`search answered ${res.status}`);
  if (res.headers.get("desk-search-mode") === "hybrid") hybrid++;
}
console.log(`GET /v1/ai/search (${hybrid}/${QUERIES} hybrid): ${stats(route)}`);
console.log(`RSS after: ${Math.round(process.memoryUsage().rss / 1e6)} MB`);

await desk.stop();
await fake.stop();
