/**
 * The auto-close pass at scale: `bun bench/auto-close.ts` (BENCH_CLOSED=300000 BENCH_SOLVED=2000).
 * Seeds one workspace with many closed tickets (the ones that pile up forever) and some solved
 * ones, then prints what one pass costs when nothing is due (the every-15-minutes case) and per
 * ticket when tickets are due, with the query plan of the due-ticket seek.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadConfig } from "../src/config/config";
import { unaryPlusParameters } from "../src/db/sqlite/open";
import { autoCloseDueTickets } from "../src/lifecycle/lifecycle.jobs";
import { manualClock } from "../src/lib/clock";
import { newId } from "../src/lib/ids";
import { startDesk } from "../src/start";
import { solvedTicketsBeforeQuery } from "../src/tickets/tickets.lifecycle";
import { createWorkspace } from "../src/workspaces/workspaces.service";

const CLOSED = Number(process.env.BENCH_CLOSED ?? 300_000);
const SOLVED = Number(process.env.BENCH_SOLVED ?? 2000);
const DAY = 86_400_000;
const dataDir = mkdtempSync(join(tmpdir(), "desk-bench-autoclose-"));
const clock = manualClock(new Date("2026-06-01T12:00:00Z"));
const config = loadConfig({
  DESK_PORT: "0",
  DESK_SMTP_PORT: "0",
  DESK_DATA_DIR: dataDir,
  DESK_JOBS: process.env.BENCH_JOBS ?? "on",
  DESK_LOG_LEVEL: "warn",
  DESK_SECRET: "bench-secret-that-is-long-enough-0123456789",
});
const desk = await startDesk(config, { webAssets: null, clock });
const sqlite = desk.deps.db.$client;
const workspace = await createWorkspace({ userId: newId() }, { name: "Bench" }, desk.deps);
await Bun.sleep(10);

const insert = sqlite.query(
  "INSERT INTO tickets (id, workspace_id, number, subject, status, last_message_at, solved_at, custom, created_at, updated_at) VALUES (?, ?, ?, 'Bench', ?, ?, ?, '{}', ?, ?)",
);
const started = performance.now();
sqlite.exec("BEGIN");
let number = 1;
const old = new Date(clock.now().getTime() - 60 * DAY).toISOString();
for (let i = 0; i < CLOSED; i++) insert.run(newId(), workspace.id, number++, "closed", old, old, old, old);
// Solved an hour ago: not due for four days.
const recent = new Date(clock.now().getTime() - 3600_000).toISOString();
for (let i = 0; i < SOLVED; i++) insert.run(newId(), workspace.id, number++, "solved", recent, recent, recent, recent);
sqlite.exec("COMMIT");
sqlite.exec("ANALYZE");
console.log(
  `seeded ${CLOSED} closed + ${SOLVED} solved tickets in ${((performance.now() - started) / 1000).toFixed(1)} s`,
);

// The seek as the database layer runs it (bare comparison parameters become `+?`).
const seek = solvedTicketsBeforeQuery(desk.deps.db, workspace.id, clock.now().toISOString(), 200).toSQL();
const plan = sqlite
  .query<{ detail: string }, (string | number)[]>(`EXPLAIN QUERY PLAN ${unaryPlusParameters(seek.sql)}`)
  .all(...(seek.params as (string | number)[]));
console.log(`plan: ${plan.map((p) => p.detail).join(" | ")}`);

const idle: number[] = [];
for (let i = 0; i < 200; i++) {
  const t = performance.now();
  const closed = await autoCloseDueTickets(desk.deps);
  idle.push(performance.now() - t);
  if (closed !== 0) throw new Error("nothing should be due yet");
}
idle.sort((a, b) => a - b);
console.log(
  `pass with nothing due: p50 ${idle[100]!.toFixed(3)} ms, p95 ${idle[190]!.toFixed(3)} ms (${CLOSED + SOLVED} tickets)`,
);

clock.advance(5 * DAY);
const t = performance.now();
const closed = await autoCloseDueTickets(desk.deps);
const ms = performance.now() - t;
console.log(`closing ${closed} due tickets: ${ms.toFixed(0)} ms, ${(ms / closed).toFixed(3)} ms per ticket`);

await desk.stop();
rmSync(dataDir, { recursive: true, force: true });
