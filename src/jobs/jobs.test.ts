import { describe, expect, test } from "bun:test";
import { openTestDatabase } from "../../test/kit/database";
import { join } from "node:path";
import { z } from "zod";
import { sql } from "drizzle-orm";
import type { Db } from "../db/database";
import { execute, rowsOf } from "../db/store";
import { transact } from "../db/tx";
import { manualClock, systemClock, type Clock } from "../lib/clock";
import { createLogger } from "../lib/logger";
import { onPostgres } from "../../test/kit/postgres";
import { backoffDelay, defineJob, PermanentFailure, RetryLater, type AnyJob } from "./define";
import { enqueueByName } from "./enqueue";
import { jobStatements } from "./jobs.statements";
import { createJobRunner, type RunnerOptions } from "./runner";
import { until } from "../../test/kit/until";

/** A migrated database of its own, on the engine the tests run on (`path`: where a second process opens it). */
async function freshDb(): Promise<{ db: Db; path: string }> {
  const { db, where } = await openTestDatabase();
  return { db, path: where };
}

type JobState = { state: string; attempts: number; run_at: string; last_error: string | null; max_attempts: number };
const jobRow = async (db: Db, id: string) =>
  (
    await rowsOf<JobState>(db, sql`SELECT state, attempts, run_at, last_error, max_attempts FROM jobs WHERE id = ${id}`)
  )[0]!;
const add = async (db: Db, kind: string, payload: unknown = {}, options: Parameters<typeof enqueueByName>[3] = {}) =>
  (await transact(db, async (tx) => await enqueueByName(tx, kind, payload, options)))!;

function runnerFor<C extends Clock = ReturnType<typeof manualClock>>(
  db: Db,
  definitions: AnyJob<unknown>[],
  clock: C = manualClock() as unknown as C,
  extra: Partial<RunnerOptions<unknown>> = {},
) {
  return {
    clock,
    runner: createJobRunner({ db, logger: createLogger("silent"), clock, deps: {}, definitions, ...extra }),
  };
}

/** The rows each claim statement of the runners on `db` took, per kind, in order. */
function recordClaims(db: Db): Array<[string, number]> {
  const claims: Array<[string, number]> = [];
  const statements = jobStatements(db);
  const claimDue = statements.claimDue;
  statements.claimDue = async (claim) => {
    const rows = await claimDue(claim);
    if (rows.length > 0) claims.push([claim.kind, rows.length]);
    return rows;
  };
  return claims;
}

const later = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("job runner", () => {
  test("a job waits for its run_at", async () => {
    const { db } = await freshDb();
    const ran: string[] = [];
    const { runner, clock } = runnerFor(db, [
      defineJob({ schema: z.object({ n: z.string() }), name: "t.later", handler: (p) => void ran.push(p.n) }),
    ]);
    const id = await add(db, "t.later", { n: "a" }, { runAt: new Date(clock.now().getTime() + 60_000) });
    expect(await runner.drain()).toBe(0);
    clock.advance(60_000);
    expect(await runner.drain()).toBe(1);
    expect(ran).toEqual(["a"]);
    expect((await jobRow(db, id)).state).toBe("done");
  });

  test("failures retry with exponential backoff and jitter, then fail after max attempts", async () => {
    const { db } = await freshDb();
    let calls = 0;
    const flaky = defineJob({
      schema: z.unknown(),
      name: "t.flaky",
      retry: { maxAttempts: 3, baseDelayMs: 1000, maxDelayMs: 10_000 },
      handler() {
        calls++;
        throw new Error(`boom ${calls}`);
      },
    });
    const { runner, clock } = runnerFor(db, [flaky]);
    const id = await add(db, "t.flaky");
    await runner.drain();
    let row = await jobRow(db, id);
    expect(row).toMatchObject({ state: "queued", attempts: 1, last_error: "boom 1" });
    const wait1 = new Date(row.run_at).getTime() - clock.now().getTime();
    expect(wait1).toBeGreaterThanOrEqual(500);
    expect(wait1).toBeLessThanOrEqual(1000);
    clock.advance(1000);
    await runner.drain();
    row = await jobRow(db, id);
    const wait2 = new Date(row.run_at).getTime() - clock.now().getTime();
    expect(wait2).toBeGreaterThanOrEqual(1000);
    expect(wait2).toBeLessThanOrEqual(2000);
    clock.advance(2000);
    await runner.drain();
    expect(await jobRow(db, id)).toMatchObject({ state: "failed", attempts: 3, last_error: "boom 3" });
    expect(calls).toBe(3);
  });

  test("backoff doubles per attempt, is capped, and jitters within half to the whole step", () => {
    const policy = { maxAttempts: 10, baseDelayMs: 1000, maxDelayMs: 8000 };
    expect(backoffDelay(1, policy, () => 0)).toBe(500);
    expect(backoffDelay(1, policy, () => 1)).toBe(1000);
    expect(backoffDelay(3, policy, () => 1)).toBe(4000);
    expect(backoffDelay(9, policy, () => 1)).toBe(8000);
    expect(backoffDelay(9, policy, () => 0)).toBe(4000);
  });

  test("RetryLater picks the time; PermanentFailure and an invalid payload stop at once", async () => {
    const { db } = await freshDb();
    const { runner, clock } = runnerFor(db, [
      defineJob({
        schema: z.unknown(),
        name: "t.later-please",
        handler() {
          throw new RetryLater(42_000, "busy");
        },
      }),
      defineJob({
        schema: z.unknown(),
        name: "t.hopeless",
        handler() {
          throw new PermanentFailure("no such mailbox");
        },
      }),
      defineJob({ name: "t.typed", schema: z.object({ n: z.number() }), handler() {} }),
    ]);
    const a = await add(db, "t.later-please");
    const b = await add(db, "t.hopeless");
    const c = await add(db, "t.typed", { n: "not a number" });
    await runner.drain();
    expect(await jobRow(db, a)).toMatchObject({ state: "queued", attempts: 1, last_error: "busy" });
    expect(new Date((await jobRow(db, a)).run_at).getTime() - clock.now().getTime()).toBe(42_000);
    expect(await jobRow(db, b)).toMatchObject({ state: "failed", attempts: 1, last_error: "no such mailbox" });
    expect((await jobRow(db, c)).state).toBe("failed");
    expect((await jobRow(db, c)).last_error).toContain("invalid payload");
  });

  test("a job's own maxAttempts overrides the kind's policy", async () => {
    const { db } = await freshDb();
    const { runner } = runnerFor(db, [
      defineJob({
        schema: z.unknown(),
        name: "t.once",
        retry: { maxAttempts: 5 },
        handler() {
          throw new Error("x");
        },
      }),
    ]);
    const id = await add(db, "t.once", {}, { maxAttempts: 1 });
    await runner.drain();
    expect(await jobRow(db, id)).toMatchObject({ state: "failed", attempts: 1 });
  });

  // The fixture opens the SQLite file it is given (SQLite-only, as the crash fixtures are).
  test.skipIf(onPostgres)("a job left running by a killed process runs again after start", async () => {
    const { db, path } = await freshDb();
    const child = Bun.spawn(["bun", join(import.meta.dir, "jobs.crash-fixture.ts"), path], {
      stdout: "pipe",
      stderr: "inherit",
    });
    const reader = child.stdout.getReader();
    let seen = "";
    while (!seen.includes("claimed")) {
      const { value, done } = await reader.read();
      if (done) throw new Error("fixture exited early");
      seen += new TextDecoder().decode(value);
    }
    child.kill("SIGKILL");
    await child.exited;
    const left = (
      await rowsOf<{ id: string; state: string }>(db, sql`SELECT id, state FROM jobs WHERE kind = 'test.crashy'`)
    )[0]!;
    expect(left.state).toBe("running");

    const ran: string[] = [];
    const { runner } = runnerFor(
      db,
      [
        defineJob({
          schema: z.object({ label: z.string() }),
          name: "test.crashy",
          handler: (p) => void ran.push(p.label),
        }),
      ],
      systemClock,
    );
    await runner.start();
    await until(() => ran.length === 1);
    await until(async () => (await jobRow(db, left.id)).state === "done");
    await runner.stop();
    expect(ran).toEqual(["survivor"]);
    expect((await jobRow(db, left.id)).attempts).toBe(2);
  });

  test("an interrupted run that was its last attempt fails at start instead of looping", async () => {
    const { db } = await freshDb();
    const id = await add(db, "t.poison", {}, { maxAttempts: 1 });
    await execute(db, sql`UPDATE jobs SET state = 'running', attempts = 1 WHERE id = ${id}`);
    const { runner } = runnerFor(db, [defineJob({ schema: z.unknown(), name: "t.poison", handler() {} })]);
    await runner.start();
    await runner.stop();
    expect(await jobRow(db, id)).toMatchObject({ state: "failed", last_error: "interrupted on its last attempt" });
  });

  test("a recurring job keeps exactly one run queued at its next cron time", async () => {
    const { db } = await freshDb();
    let runs = 0;
    const clock = manualClock(new Date("2026-03-01T10:02:00Z"));
    const { runner } = runnerFor(
      db,
      [defineJob({ schema: z.unknown(), name: "t.cron", schedule: "*/5 * * * *", handler: () => void runs++ })],
      clock,
    );
    await runner.start();
    await runner.start();
    const queued = async () =>
      await rowsOf<{ run_at: string }>(db, sql`SELECT run_at FROM jobs WHERE kind = 't.cron' AND state = 'queued'`);
    expect(await queued()).toEqual([{ run_at: "2026-03-01T10:05:00.000Z" }]);
    clock.advance(3 * 60_000);
    await runner.drain();
    expect(runs).toBe(1);
    expect(await queued()).toEqual([{ run_at: "2026-03-01T10:10:00.000Z" }]);
    await runner.stop();
  });

  test("no more than the kind's concurrency run at once", async () => {
    const { db } = await freshDb();
    let active = 0;
    let peak = 0;
    const slow = defineJob({
      schema: z.unknown(),
      name: "t.slow",
      concurrency: 2,
      async handler() {
        active++;
        peak = Math.max(peak, active);
        await later(20);
        active--;
      },
    });
    const { runner } = runnerFor(db, [slow]);
    const ids = await Promise.all(Array.from({ length: 6 }, () => add(db, "t.slow")));
    expect(await runner.drain()).toBe(6);
    expect(peak).toBe(2);
    expect((await Promise.all(ids.map((id) => jobRow(db, id)))).every((row) => row.state === "done")).toBe(true);
  });

  test("stop lets a short run finish and hands a long one back without spending an attempt", async () => {
    const { db } = await freshDb();
    let release = () => {};
    const { runner } = runnerFor(db, [
      defineJob({
        schema: z.unknown(),
        name: "t.short",
        async handler() {
          await later(30);
        },
      }),
      defineJob({
        schema: z.unknown(),
        name: "t.long",
        handler: () =>
          new Promise<void>((resolve) => {
            release = resolve;
          }),
      }),
    ]);
    const short = await add(db, "t.short");
    const long = await add(db, "t.long");
    await runner.start();
    await until(
      async () => (await jobRow(db, long)).state === "running" && (await jobRow(db, short)).state === "running",
    );
    await runner.stop(200);
    expect((await jobRow(db, short)).state).toBe("done");
    expect(await jobRow(db, long)).toMatchObject({ state: "queued", attempts: 0 });
    release();
    await later(10);
    expect((await jobRow(db, long)).state).toBe("queued");
  });

  test("a run past its lease is aborted, counted as a failed attempt, and frees its slot", async () => {
    const { db } = await freshDb();
    let aborted = false;
    const { runner } = runnerFor(db, [
      defineJob({
        schema: z.unknown(),
        name: "t.stuck",
        concurrency: 1,
        leaseMs: 50,
        handler: (_p, run) =>
          new Promise<void>(() => {
            run.signal.addEventListener("abort", () => {
              aborted = true;
            });
          }),
      }),
    ]);
    const id = await add(db, "t.stuck");
    await runner.drain();
    expect(aborted).toBe(true);
    expect(await jobRow(db, id)).toMatchObject({ state: "queued", attempts: 1 });
    expect((await jobRow(db, id)).last_error).toContain("lease");
    expect(runner.stats().running["t.stuck"]).toBe(0);
  });

  test("a burst of due jobs starts in bounded turns, yielding to the event loop between them", async () => {
    const { db } = await freshDb();
    let done = 0;
    const { runner } = runnerFor(
      db,
      [defineJob({ schema: z.unknown(), name: "t.burst", concurrency: 40, handler: () => void done++ })],
      manualClock(),
      { pollMs: 60_000 },
    );
    await Promise.all(Array.from({ length: 40 }, () => add(db, "t.burst")));
    const running = async () =>
      (
        await rowsOf<{ n: number }>(
          db,
          sql`SELECT count(*) AS n FROM jobs WHERE kind = 't.burst' AND state != 'queued'`,
        )
      )[0]!.n;
    const claims = recordClaims(db);
    await runner.start();
    // The start's turn, read from its claim statements: on PostgreSQL its runs may already have
    // finished and the next turn begun while it armed its timer (both await the network).
    expect(claims[0]).toEqual(["t.burst", 16]);
    await until(() => done === 40);
    await runner.stop();
    expect(await running()).toBe(40);
    expect(claims.every(([, n]) => n <= 16)).toBe(true);
  });

  test("customer work has its own share of each turn: a flood of background jobs never takes its starts", async () => {
    const { db } = await freshDb();
    const started: string[] = [];
    const handler = (name: string) => () => void started.push(name);
    const background = defineJob({ schema: z.unknown(), name: "t.index", concurrency: 40, handler: handler("index") });
    const mail = defineJob({
      schema: z.unknown(),
      name: "t.mail",
      concurrency: 4,
      lane: "customer",
      handler: handler("mail"),
    });
    // Listed after the background kind, and queued after its flood.
    const { runner } = runnerFor(db, [background, mail], manualClock(), { pollMs: 60_000 });
    await Promise.all(Array.from({ length: 40 }, () => add(db, "t.index")));
    await Promise.all(Array.from({ length: 4 }, () => add(db, "t.mail")));
    const claimed = async (kind: string) =>
      (
        await rowsOf<{ n: number }>(db, sql`SELECT count(*) AS n FROM jobs WHERE kind = ${kind} AND state != 'queued'`)
      )[0]!.n;
    const claims = recordClaims(db);
    await runner.start();
    // The first turn: every mail starts, and the background kind still gets its whole budget.
    expect(Object.fromEntries(claims.slice(0, 2))).toEqual({ "t.mail": 4, "t.index": 16 });
    await until(() => started.length === 44);
    await runner.stop();
    expect(await claimed("t.mail")).toBe(4);
    expect(await claimed("t.index")).toBe(40);
  });

  test("enqueue wakes a started runner at once", async () => {
    const { db } = await freshDb();
    const ran: number[] = [];
    const { runner } = runnerFor(
      db,
      [defineJob({ schema: z.object({ n: z.number() }), name: "t.now", handler: (p) => void ran.push(p.n) })],
      manualClock(),
      { pollMs: 60_000 },
    );
    await runner.start();
    await add(db, "t.now", { n: 7 });
    await until(() => ran.length === 1);
    await runner.stop();
    expect(ran).toEqual([7]);
  });
});
