/**
 * The SLA breach job at scale: `bun bench/sla.ts` (BENCH_TICKETS=1000000 BENCH_DUE=100 BENCH_ROUNDS=20).
 * Seeds a fresh data dir with raw SQL (one workspace, BENCH_TICKETS tickets under an SLA policy, each
 * with its clock; deadlines spread over 30 days from an hour ahead), then times one pass of the breach job
 * (`breachPass`, commit included): with nothing due (the usual minute), and with BENCH_DUE deadlines
 * just passed (each recorded: clock, ticket, activity, events, a notification). Prints the query plan
 * of the due-clock read: it must search the partial index on next_due_at, never scan.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { users } from "../src/identity/identity.table";
import { buildDeps } from "../src/compose";
import { loadConfig } from "../src/config/config";
import { commitPending, transact } from "../src/db/tx";
import { newId } from "../src/lib/ids";
import { breachPass } from "../src/sla/sla.track";
import { createWorkspace } from "../src/workspaces/workspaces.service";

const TICKETS = Number(process.env.BENCH_TICKETS ?? 1_000_000);
const DUE = Number(process.env.BENCH_DUE ?? 100);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 20);

const dataDir = mkdtempSync(join(tmpdir(), "desk-bench-sla-"));
const config = loadConfig({
  DESK_DATA_DIR: dataDir,
  DESK_SECRET: "bench-secret-that-is-long-enough-0123456789",
  DESK_LOG_LEVEL: "warn",
});
const deps = await buildDeps(config);
const sqlite = deps.db.$client;
sqlite.exec("PRAGMA synchronous = OFF");
const started = performance.now();
const elapsed = () => `${((performance.now() - started) / 1000).toFixed(1)} s`;

const nowMs = deps.clock.now().getTime();
const iso = new Date(nowMs).toISOString();
const ownerId = newId();
await deps.db
  .insert(users)
  .values({ id: ownerId, email: "owner@bench.test", name: "Owner", createdAt: iso, updatedAt: iso });
const ws = (await createWorkspace({ userId: ownerId }, { name: "SLA bench" }, deps)).id;
commitPending(deps.db);
const policyId = newId();
sqlite.exec(`INSERT INTO sla_policies (id, workspace_id, name, priority, first_response_minutes, resolution_minutes,
  business_hours, enabled, position, created_at, updated_at) VALUES ('${policyId}', '${ws}', 'Any', NULL, 60, 480, 0, 1, 0, '${iso}', '${iso}')`);

// Bulk seed: the search triggers would cost ~100 µs a row and play no part here.
for (const { name } of sqlite
  .query<{ name: string }, []>("SELECT name FROM sqlite_master WHERE type = 'trigger' AND name LIKE '%_search_%'")
  .all())
  sqlite.exec(`DROP TRIGGER ${name}`);

const SPREAD_MS = 30 * 24 * 3600_000;
// One change, committed at once (the body only runs SQL of its own).
await transact(deps.db, () => {
  sqlite.exec(`WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${TICKETS})
    INSERT INTO tickets (id, workspace_id, number, subject, status, priority, channel, spam, last_message_at,
      last_message_preview, message_count, custom, sla, created_at, updated_at)
    SELECT printf('t-%08d', i), '${ws}', i, 'Ticket ' || i, 'open', 'normal', 'api', 0, '${iso}', '', 0, '{}',
      json_object('policy_id', '${policyId}', 'first_response_due_at', strftime('%Y-%m-%dT%H:%M:%fZ', ${nowMs} / 1000.0 + 3600 + (i * ${SPREAD_MS / 1000} / ${TICKETS}), 'unixepoch'),
        'resolution_due_at', NULL, 'breached', json('false')),
      '${iso}', '${iso}' FROM n`);
  sqlite.exec(`INSERT INTO sla_clocks (ticket_id, workspace_id, policy_id, started_at, solved, first_due_at, resolution_due_at,
      first_breached, resolution_breached, breached, next_due_at, updated_at)
    SELECT id, workspace_id, '${policyId}', created_at, 0, json_extract(sla, '$.first_response_due_at'), NULL, 0, 0, 0,
      json_extract(sla, '$.first_response_due_at'), created_at FROM tickets WHERE workspace_id = '${ws}'`);
});
commitPending(deps.db);
sqlite.exec("ANALYZE");
console.log(`seeded ${TICKETS} tickets with SLA clocks (${elapsed()})`);

const plan = sqlite
  .query<{ detail: string }, [string]>(
    `EXPLAIN QUERY PLAN SELECT ticket_id FROM sla_clocks WHERE next_due_at IS NOT NULL AND next_due_at <= ? ORDER BY next_due_at LIMIT 200`,
  )
  .all(iso)
  .map((r) => r.detail);
console.log(`due-clock read: ${plan.join("; ")}`);

const time = async (run: () => number | Promise<number>): Promise<{ ms: number; recorded: number }> => {
  const t = performance.now();
  const recorded = await run();
  commitPending(deps.db);
  return { ms: performance.now() - t, recorded };
};
const pct = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
};

// Nothing due: the pass the job makes almost every minute.
const idle: number[] = [];
for (let i = 0; i < 200; i++) idle.push((await time(async () => await breachPass(deps))).ms);
console.log(`pass, nothing due:            p50 ${pct(idle, 50).toFixed(3)} ms   p95 ${pct(idle, 95).toFixed(3)} ms`);

// DUE deadlines just passed (a different set each round): each recorded once.
const busy: number[] = [];
const past = new Date(nowMs - 1000).toISOString();
let recordedTotal = 0;
for (let round = 0; round < ROUNDS; round++) {
  const first = 1 + Math.floor((round * TICKETS) / ROUNDS);
  sqlite.exec(`UPDATE sla_clocks SET first_due_at = '${past}', next_due_at = '${past}', first_breached = 0
    WHERE ticket_id >= printf('t-%08d', ${first}) AND ticket_id < printf('t-%08d', ${first + DUE})`);
  const { ms, recorded } = await time(async () => await breachPass(deps));
  recordedTotal += recorded;
  busy.push(ms);
}
console.log(
  `pass, ${DUE} breaches due:`.padEnd(30) +
    `p50 ${pct(busy, 50).toFixed(2)} ms   p95 ${pct(busy, 95).toFixed(2)} ms   (${(pct(busy, 50) / DUE).toFixed(3)} ms a breach; ${recordedTotal} recorded in ${ROUNDS} rounds)`,
);
const pending = sqlite.query<{ n: number }, []>("SELECT count(*) AS n FROM sla_clocks").get()!.n;
console.log(`clocks: ${pending}`);
sqlite.close();
rmSync(dataDir, { recursive: true, force: true });
