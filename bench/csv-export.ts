/**
 * CSV export benchmark: GET /v1/tickets/export.csv over a real socket against a seeded data dir.
 *   bun bench/csv-export.ts                                   seeds 100k tickets in a temporary dir first
 *   DESK_DATA_DIR=/tmp/desk-bench bun bench/csv-export.ts     an existing seed (scripts/seed.ts)
 *   BENCH_SLOW_READER=1                                       reads 64 KB every 5 ms, to show backpressure
 * Prints rows, bytes, time, throughput and the process's resident memory (all of it, and the part it
 * allocated itself, without the database pages SQLite maps: up to mmap_size 256 MB plus a 64 MB page
 * cache) and JS heap before and at their peak (sampled every 20 ms): a streamed export keeps the
 * allocated part flat however many tickets there are.
 * BENCH_KEEP=1 keeps the seeded temporary dir (its path is printed) for another run.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadConfig } from "../src/config/config";
import { startDesk } from "../src/start";

const seeded = process.env.DESK_DATA_DIR;
const dataDir = seeded ?? mkdtempSync(join(tmpdir(), "desk-csv-bench-"));
if (!seeded) {
  const tickets = process.env.BENCH_TICKETS ?? "100000";
  console.log(`seeding ${tickets} tickets into ${dataDir} …`);
  const seed = Bun.spawnSync(
    [
      "bun",
      join(import.meta.dir, "..", "scripts", "seed.ts"),
      "--tickets",
      tickets,
      "--contacts",
      "20000",
      "--messages-per-ticket",
      "1",
    ],
    { env: { ...process.env, DESK_DATA_DIR: dataDir }, stdio: ["ignore", "inherit", "inherit"] },
  );
  if (seed.exitCode !== 0) throw new Error("seeding failed");
}

const config = loadConfig({
  ...process.env,
  DESK_DATA_DIR: dataDir,
  DESK_PORT: "0",
  DESK_SMTP_PORT: "0",
  DESK_JOBS: process.env.BENCH_JOBS ?? "on",
  DESK_LOG_LEVEL: "warn",
});
const { api_key: apiKey } = JSON.parse(readFileSync(join(dataDir, "bench.json"), "utf8")) as { api_key: string };
const desk = await startDesk(config, { webAssets: null });
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

/** Resident memory the process allocated itself (Linux RssAnon), without the database file SQLite maps (RssFile). */
function anonRss(): number {
  try {
    const kb = /RssAnon:\s+(\d+) kB/.exec(readFileSync("/proc/self/status", "utf8"))?.[1];
    return kb ? Number(kb) * 1024 : 0;
  } catch {
    return 0;
  }
}

async function exportOnce(query: string): Promise<void> {
  Bun.gc(true);
  const before = process.memoryUsage();
  let peak = before.rss;
  let peakHeap = before.heapUsed;
  const anonBefore = anonRss();
  let peakAnon = anonBefore;
  const sample = () => {
    const now = process.memoryUsage();
    peak = Math.max(peak, now.rss);
    peakHeap = Math.max(peakHeap, now.heapUsed);
    peakAnon = Math.max(peakAnon, anonRss());
  };
  const sampler = setInterval(sample, 20);
  const started = performance.now();
  const res = await fetch(`${desk.url}/v1/tickets/export.csv${query}`, {
    headers: { authorization: `Bearer ${apiKey}` },
  });
  if (res.status !== 200) throw new Error(`export answered ${res.status}: ${await res.text()}`);
  const reader = res.body!.getReader();
  let bytes = 0;
  let lines = 0;
  for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
    bytes += chunk.value.byteLength;
    for (const byte of chunk.value) if (byte === 10) lines++;
    if (process.env.BENCH_SLOW_READER) await Bun.sleep(5);
  }
  const seconds = (performance.now() - started) / 1000;
  clearInterval(sampler);
  sample();
  console.log(
    `export${query || " (all)"}: ${lines - 1} rows, ${mb(bytes)} in ${seconds.toFixed(2)} s ` +
      `(${Math.round((lines - 1) / seconds)} rows/s); RSS ${mb(before.rss)} before, peak ${mb(peak)}; ` +
      `anonymous RSS ${mb(anonBefore)} before, peak ${mb(peakAnon)}; JS heap ${mb(before.heapUsed)} before, peak ${mb(peakHeap)}`,
  );
}

try {
  await exportOnce("?status=open");
  // Twice: the first run also maps the database file (SQLite mmap and page cache, bounded by
  // src/db/database.ts) into RSS; the second shows what the export itself holds.
  await exportOnce("");
  await exportOnce("");
} finally {
  await desk.stop();
  if (!seeded && !process.env.BENCH_KEEP) rmSync(dataDir, { recursive: true, force: true });
}
