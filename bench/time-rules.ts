/**
 * Time rules at scale: `bun bench/time-rules.ts` (BENCH_TICKETS=1000000 BENCH_PASSES=20).
 * Seeds a fresh data dir with raw SQL (one workspace, UUID-shaped ids, BENCH_TICKETS tickets created over 180 days:
 * 85% closed, 8% open, 4% pending, 3% on hold; the `ticket_times` rows come from the real insert
 * trigger), saves three time rules (pending for 3 days → label; open with no agent reply for 4 h →
 * urgent; SLA due within 30 minutes → label), then times passes of `timeRulesPass` (commit included):
 * the first ones act on up to the per-workspace budget of matching tickets, the later ones read tickets
 * already acted on. Prints the query plan of a rule's range read: it must search an index of
 * ticket_times, never scan the tickets.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { users } from "../src/identity/identity.table";
import { systemContext } from "../src/auth/context";
import { createAutomation } from "../src/automations/automations.service";
import { timeRulesPass } from "../src/automations/automations.time-rules";
import { buildDeps } from "../src/compose";
import { loadConfig } from "../src/config/config";
import { commitPending, transact } from "../src/db/tx";
import { newId } from "../src/lib/ids";
import { createWorkspace } from "../src/workspaces/workspaces.service";

const TICKETS = Number(process.env.BENCH_TICKETS ?? 1_000_000);
const PASSES = Number(process.env.BENCH_PASSES ?? 20);

const dataDir = mkdtempSync(join(tmpdir(), "desk-bench-time-rules-"));
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
const ws = (await createWorkspace({ userId: ownerId }, { name: "Time rules bench" }, deps)).id;
commitPending(deps.db);

// Bulk seed: the search triggers would cost ~100 µs a row and play no part here (ticket_times' triggers stay).
for (const { name } of sqlite
  .query<{ name: string }, []>("SELECT name FROM sqlite_master WHERE type = 'trigger' AND name LIKE '%_search_%'")
  .all())
  sqlite.exec(`DROP TRIGGER ${name}`);

const SPREAD_S = 180 * 24 * 3600;
const seedStarted = performance.now();
// One change, committed at once and timed with its commit (the body only runs SQL of its own).
await transact(deps.db, () => {
  // Ticket i was created (i / TICKETS) of 180 days ago, newest last; every 7th open one has an SLA deadline ahead.
  sqlite.exec(`WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${TICKETS}),
    s AS (SELECT i, CASE WHEN i % 100 < 85 THEN 'closed' WHEN i % 100 < 93 THEN 'open' WHEN i % 100 < 97 THEN 'pending' ELSE 'on_hold' END AS status,
      strftime('%Y-%m-%dT%H:%M:%fZ', ${nowMs} / 1000.0 - ${SPREAD_S} + (i * ${SPREAD_S}.0 / ${TICKETS}), 'unixepoch') AS at FROM n)
    INSERT INTO tickets (id, workspace_id, number, subject, status, priority, channel, spam, last_message_at,
      last_message_preview, message_count, custom, sla, created_at, updated_at)
    SELECT printf('00000000-0000-4000-8000-%012d', i), '${ws}', i, 'Ticket ' || i, status, 'normal', 'api', 0, at, '', 0, '{}',
      CASE WHEN status = 'open' AND i % 7 = 0 THEN json_object('policy_id', NULL,
        'first_response_due_at', strftime('%Y-%m-%dT%H:%M:%fZ', ${nowMs} / 1000.0 + (i % 240) * 60, 'unixepoch'),
        'resolution_due_at', NULL, 'breached', json('false')) END,
      at, at FROM s`);
});
commitPending(deps.db);
const seedMs = performance.now() - seedStarted;
sqlite.exec("ANALYZE");
const count = async (sql: string) => sqlite.query<{ n: number }, []>(sql).get()!.n;
console.log(
  `seeded ${await count("SELECT count(*) AS n FROM tickets")} tickets (${await count("SELECT count(*) AS n FROM ticket_times")} ticket_times rows) in ${(seedMs / 1000).toFixed(1)} s, ${((seedMs * 1000) / TICKETS).toFixed(1)} µs a ticket with every insert trigger (${elapsed()})`,
);

const ctx = systemContext(ws);
const rule = async (name: string, conditions: Array<Record<string, unknown>>, actions: Array<Record<string, string>>) =>
  await createAutomation(
    ctx,
    {
      name,
      trigger: "time",
      conditions: conditions as never,
      actions: actions.map((a) => ({ type: a.type as "add_tag", value: a.value ?? "" })),
    },
    deps,
  );
await rule(
  "Pending reminder",
  [
    { field: "status", op: "equals", value: "pending" },
    { field: "hours_since_status_changed", op: "gt", value: 72 },
  ],
  [{ type: "add_tag", value: "reminded" }],
);
await rule(
  "No agent reply",
  [
    { field: "status", op: "equals", value: "open" },
    { field: "hours_since_agent_message", op: "gt", value: 4 },
  ],
  [{ type: "set_priority", value: "urgent" }],
);
await rule(
  "SLA soon",
  [{ field: "sla", op: "due_within_minutes", value: 30 }],
  [{ type: "add_tag", value: "sla-soon" }],
);
commitPending(deps.db);

const cutoff = new Date(nowMs - 72 * 3600_000).toISOString();
const plan = sqlite
  .query<{ detail: string }, [string, string]>(
    `EXPLAIN QUERY PLAN SELECT ticket_id FROM ticket_times WHERE workspace_id = ?1 AND status = 'pending' AND status_changed_at >= '' AND status_changed_at < ?2
       AND (status_changed_at < ?2 OR (status_changed_at = ?2 AND ticket_id < '')) ORDER BY status_changed_at DESC, ticket_id DESC LIMIT 100`,
  )
  .all(ws, cutoff)
  .map((r) => r.detail);
console.log(`a rule's range read: ${plan.join("; ")}`);

const cursors = new Map();
const rows: string[] = [];
const costs: number[] = [];
for (let i = 0; i < PASSES; i++) {
  const t = performance.now();
  const figures = await timeRulesPass(deps, {}, cursors);
  commitPending(deps.db);
  const ms = performance.now() - t;
  costs.push(ms);
  if (i < 3 || i === PASSES - 1)
    rows.push(
      `pass ${String(i + 1).padStart(3)}: ${ms.toFixed(1).padStart(7)} ms  examined ${figures.examined}  acted on ${figures.applied}`,
    );
}
console.log(rows.join("\n"));
const sorted = [...costs].sort((a, b) => a - b);
console.log(
  `${PASSES} passes over ${TICKETS} tickets (3 rules): p50 ${sorted[Math.floor(PASSES / 2)]!.toFixed(1)} ms, max ${sorted.at(-1)!.toFixed(1)} ms; marks ${await count("SELECT count(*) AS n FROM automation_time_marks")}`,
);

// Steady state: every ticket each rule could act on was acted on already (and has not changed since),
// so a pass only reads its index ranges and the marks: the cost of evaluating the rules every minute.
sqlite.exec(`INSERT OR IGNORE INTO automation_time_marks (automation_id, ticket_id, workspace_id, acted_at)
  SELECT a.id, tt.ticket_id, tt.workspace_id, '${new Date(nowMs + 3600_000).toISOString()}'
  FROM automations a JOIN ticket_times tt ON tt.workspace_id = a.workspace_id WHERE a.trigger = 'time'`);
commitPending(deps.db);
const steady: number[] = [];
let steadyExamined = 0;
for (let i = 0; i < PASSES; i++) {
  const t = performance.now();
  const figures = await timeRulesPass(deps, {}, cursors);
  commitPending(deps.db);
  steady.push(performance.now() - t);
  steadyExamined = figures.examined;
  if (figures.applied !== 0) throw new Error("a marked ticket was acted on again");
}
steady.sort((a, b) => a - b);
console.log(
  `steady state over ${TICKETS} tickets (3 rules, all acted on): p50 ${steady[Math.floor(PASSES / 2)]!.toFixed(2)} ms, max ${steady.at(-1)!.toFixed(2)} ms a pass, ${steadyExamined} ticket times read`,
);
sqlite.close();
rmSync(dataDir, { recursive: true, force: true });
