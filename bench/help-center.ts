/**
 * Help center article page latency at 10,000 articles: seeds one workspace with 10,000 published
 * articles in 50 collections (through the knowledge base's own service, so bodies are sanitized and
 * indexed as in production), then fetches random article pages over a real socket, one request
 * at a time, and prints p50/p95/p99 of the full answer (headers and body read), for a first view
 * (200, view counted) and a revalidation (304 on If-None-Match). Also the JSON article route and a search page.
 *
 *   bun bench/help-center.ts      BENCH_ARTICLES=10000 BENCH_REQUESTS=2000 by default
 */
import { createArticle } from "../src/kb/kb.articles.service";
import { createCollection } from "../src/kb/kb.collections.service";
import { createWorkspaceWithOwner } from "../test/factories";
import { startTestDesk } from "../test/harness";

const ARTICLES = Number(process.env.BENCH_ARTICLES ?? 10_000);
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 2000);
const COLLECTIONS = 50;

const desk = await startTestDesk({
  env: { DESK_JOBS: process.env.BENCH_JOBS ?? "on", DESK_RESPONSE_CHECKS: "off" },
  keepAlive: true,
});
const { workspace, owner } = await createWorkspaceWithOwner(desk);
await desk.api("PATCH", "/v1/workspace", {
  headers: owner.headers,
  body: { settings: { help_center_enabled: true, brand_color: "#0b7285" } },
});

const words =
  "account billing invoice refund password security export import team inbox email widget chat report label".split(" ");
const paragraph = (i: number) =>
  `<p>${Array.from({ length: 60 }, (_, k) => words[(i * 7 + k * 3) % words.length]).join(" ")}.</p>`;

const seeded = performance.now();
// One after another, as before: each creation is its own change, in order.
const collections: Array<Awaited<ReturnType<typeof createCollection>>> = [];
for (let i = 0; i < COLLECTIONS; i++)
  collections.push(
    await createCollection(
      owner.ctx,
      { name: `Collection ${i}`, description: `Guides about ${words[i % words.length]}` },
      desk.deps,
    ),
  );
const slugs: string[] = [];
for (let i = 0; i < ARTICLES; i++) {
  const row = await createArticle(
    owner.ctx,
    {
      collection_id: collections[i % COLLECTIONS]!.id,
      title: `How to ${words[i % words.length]} ${words[(i * 5) % words.length]} number ${i}`,
      body_html: `<h2>Steps</h2>${paragraph(i)}${paragraph(i + 1)}<ul><li>One</li><li>Two</li></ul>${paragraph(i + 2)}`,
      status: "published",
    },
    desk.deps,
  );
  slugs.push(row.slug);
  // Let each turn's batch commit now and then.
  if (i % 500 === 499) await Bun.sleep(0);
}
await Bun.sleep(10);
console.log(
  `seeded ${ARTICLES} published articles in ${COLLECTIONS} collections in ${((performance.now() - seeded) / 1000).toFixed(1)} s`,
);

const origin = desk.url;
const pick = (i: number) => slugs[(i * 7919) % slugs.length]!;

async function measure(
  name: string,
  url: (i: number) => string,
  headers?: (i: number) => Record<string, string>,
  status = 200,
  requests = REQUESTS,
  warmup = 10,
) {
  // Warm-up: first compilations and page cache.
  for (let i = 0; i < warmup; i++) await (await fetch(url(i), { headers: headers?.(i) })).arrayBuffer();
  const times: number[] = [];
  let wrong = 0;
  for (let i = 0; i < requests; i++) {
    const started = performance.now();
    const res = await fetch(url(i), { headers: headers?.(i) });
    await res.arrayBuffer();
    times.push(performance.now() - started);
    if (res.status !== status) wrong++;
  }
  times.sort((a, b) => a - b);
  const at = (p: number) => times[Math.min(times.length - 1, Math.floor((p / 100) * times.length))]!.toFixed(2);
  console.log(
    `${name.padEnd(38)} n=${requests}  p50 ${at(50)} ms  p95 ${at(95)} ms  p99 ${at(99)} ms${wrong ? `  (${wrong} unexpected statuses)` : ""}`,
  );
}

const articlePage = (i: number) => `${origin}/help/${workspace.slug}/articles/${pick(i)}`;
await measure("HTML article page (200)", articlePage);
const etags = new Map<number, string>();
for (let i = 0; i < REQUESTS; i++) {
  const res = await fetch(articlePage(i));
  await res.arrayBuffer();
  etags.set(i, res.headers.get("etag") ?? "");
}
await measure("HTML article page (304)", articlePage, (i) => ({ "if-none-match": etags.get(i) ?? "" }), 304);
// The JSON routes allow 120 requests a minute per address: 100 stay under it.
await measure(
  "JSON /v1/public/help/…/articles/{slug}",
  (i) => `${origin}/v1/public/help/${workspace.slug}/articles/${pick(i)}`,
  undefined,
  200,
  100,
);
// The search page allows 60 searches a minute per address: 2 × (2 + 25) stay under it.
// Every seeded article holds both words of the first query: the broadest search there is.
await measure(
  "HTML search page (q=refund inv)",
  () => `${origin}/help/${workspace.slug}/search?q=refund+inv`,
  undefined,
  200,
  25,
  2,
);
await measure(
  "HTML search page (q=number 4242)",
  () => `${origin}/help/${workspace.slug}/search?q=number+4242`,
  undefined,
  200,
  25,
  2,
);
await measure(
  "HTML collection page (200 articles)",
  (i) => `${origin}/help/${workspace.slug}/collections/${collections[i % COLLECTIONS]!.slug}`,
);

await desk.stop();
