import { describe, expect, test } from "bun:test";
import { openTestDatabase } from "../../test/kit/database";
import pino from "pino";
import { z } from "zod";
import { sql } from "drizzle-orm";
import type { Db } from "../db/database";
import { setDeskClock } from "../db/desk-clock";
import { execute, rowsOf } from "../db/store";
import { transact } from "../db/tx";
import { manualClock } from "../lib/clock";
import { createLogger, type Logger } from "../lib/logger";
import { defineJob, type AnyJob } from "./define";
import { enqueueByName } from "./enqueue";
import { createJobRunner } from "./runner";
import { until } from "../../test/kit/until";

/** A migrated database of its own, on the engine the tests run on. */
const migrated = async (): Promise<Db> => (await openTestDatabase()).db;

/** A database and the manual clock every runner on it shares (enqueues before a runner exist follow it too). */
async function fresh(): Promise<{ db: Db; clock: ReturnType<typeof manualClock> }> {
  const db = await migrated();
  const clock = manualClock();
  setDeskClock(db, clock);
  return { db, clock };
}

type LeaseRow = {
  state: string;
  attempts: number;
  lease_owner: string | null;
  lease_node: string | null;
  lease_token: string | null;
  lease_until: string | null;
  last_error: string | null;
};
const rowOf = async (db: Db, id: string) =>
  (
    await rowsOf<LeaseRow>(
      db,
      sql`SELECT state, attempts, lease_owner, lease_node, lease_token, lease_until, last_error FROM jobs WHERE id = ${id}`,
    )
  )[0]!;
const add = async (db: Db, kind: string, payload: unknown = {}) =>
  (await transact(db, async (tx) => await enqueueByName(tx, kind, payload)))!;

/** A job kind whose runs wait until the test lets them go, counting each run per job id. */
function heldKind(name: string, options: { leaseMs?: number; concurrency?: number } = {}) {
  const runs = new Map<string, number>();
  const waiting: Array<() => void> = [];
  const definition = defineJob({
    name,
    schema: z.unknown(),
    ...options,
    handler: (_payload, { jobId }) => {
      runs.set(jobId, (runs.get(jobId) ?? 0) + 1);
      return new Promise<void>((resolve) => void waiting.push(resolve));
    },
  });
  return {
    definition,
    runs,
    waiting,
    releaseAll: () => {
      for (const go of waiting.splice(0)) go();
    },
  };
}

function runnerOn(
  db: Db,
  definitions: AnyJob<unknown>[],
  options: { node: string; clock?: ReturnType<typeof manualClock>; logger?: Logger },
) {
  const clock = options.clock ?? manualClock();
  const logger = options.logger ?? createLogger("silent");
  return createJobRunner({ db, logger, clock, deps: {}, definitions, node: options.node, pollMs: 60_000 });
}

const later = (ms: number) => new Promise((r) => setTimeout(r, ms));

function capturingLogger() {
  const lines: Array<{ msg: string; job_id?: string }> = [];
  const logger = pino({ level: "warn" }, { write: (line: string) => void lines.push(JSON.parse(line)) });
  return { logger, lines };
}

/** Puts a job in the state a runner of `node` leaves it in while running it (or after dying in it). */
async function leftRunning(db: Db, id: string, node: string, leaseUntil: Date) {
  await execute(
    db,
    sql`UPDATE jobs SET state = 'running', attempts = 1, lease_owner = 'a-runner-that-is-gone', lease_node = ${node},
     lease_token = 'its-claim', lease_until = ${leaseUntil.toISOString()} WHERE id = ${id}`,
  );
}

describe("job leases", () => {
  test("two runners on one database never run the same job twice; a starting runner leaves the other's runs be", async () => {
    const { db, clock } = await fresh();
    const held = heldKind("t.held", { concurrency: 3 });
    const ids = await Promise.all(Array.from({ length: 3 }, () => add(db, "t.held")));
    const a = runnerOn(db, [held.definition], { node: "n1", clock });
    await a.start();
    await until(() => held.runs.size === 3);
    // The same node name, as two runners of one process have.
    const b = runnerOn(db, [held.definition], { node: "n1", clock });
    await b.start();
    await later(30);
    expect(await Promise.all(ids.map(async (id) => (await rowOf(db, id)).state))).toEqual([
      "running",
      "running",
      "running",
    ]);
    held.releaseAll();
    await until(async () => (await Promise.all(ids.map((id) => rowOf(db, id)))).every((row) => row.state === "done"));

    // A flood drained by both at once: each job runs once.
    const quick = new Map<string, number>();
    const quickKind = defineJob({
      name: "t.quick",
      schema: z.unknown(),
      concurrency: 8,
      handler: async (_p, { jobId }) => {
        quick.set(jobId, (quick.get(jobId) ?? 0) + 1);
        await later(1);
      },
    });
    const c = runnerOn(db, [quickKind], { node: "n1", clock });
    const d = runnerOn(db, [quickKind], { node: "n2", clock });
    const flood = await Promise.all(Array.from({ length: 60 }, () => add(db, "t.quick")));
    const [byC, byD] = await Promise.all([c.drain(), d.drain()]);
    expect(byC + byD).toBe(60);
    const floodRows = await Promise.all(flood.map((id) => rowOf(db, id)));
    expect(flood.every((id, i) => quick.get(id) === 1 && floodRows[i]!.state === "done")).toBe(true);
    expect([...held.runs.values()]).toEqual([1, 1, 1]);
    await Promise.all([a.stop(), b.stop()]);
  });

  test("a run whose lease expired goes to another runner, and its late outcome is dropped (fencing)", async () => {
    const { db, clock } = await fresh();
    const first = heldKind("t.fenced", { leaseMs: 60_000, concurrency: 1 });
    const second = heldKind("t.fenced", { leaseMs: 60_000, concurrency: 1 });
    const { logger, lines } = capturingLogger();
    const id = await add(db, "t.fenced");
    const a = runnerOn(db, [first.definition], { node: "n1", clock, logger });
    await a.start();
    await until(async () => first.runs.size === 1 && (await rowOf(db, id)).state === "running");
    const claimA = await rowOf(db, id);

    // Runner a stalls past its lease (no heartbeat in a minute of the clock): b's turn takes the job.
    clock.advance(60_001);
    const b = runnerOn(db, [second.definition], { node: "n2", clock });
    await b.start();
    await until(() => second.runs.size === 1);
    const claimB = await rowOf(db, id);
    expect(claimB).toMatchObject({ state: "running", attempts: 2, lease_node: "n2" });
    expect(claimB.lease_token).not.toBe(claimA.lease_token);
    expect(claimB.lease_owner).not.toBe(claimA.lease_owner);

    // a finishes late: the row stays b's run.
    first.releaseAll();
    await until(() => lines.some((l) => l.msg.includes("lease lost")));
    expect(await rowOf(db, id)).toMatchObject({ state: "running", lease_token: claimB.lease_token });
    expect(lines.filter((l) => l.job_id === id)).toHaveLength(1);

    second.releaseAll();
    await until(async () => (await rowOf(db, id)).state === "done");
    await Promise.all([a.stop(), b.stop()]);
  });

  test("a long run renews its lease, so another runner does not take it over", async () => {
    const { db, clock } = await fresh();
    // The lease is real time for the heartbeat (every 200 ms) and clock time for the database.
    const long = heldKind("t.long", { leaseMs: 600, concurrency: 1 });
    const other = heldKind("t.long", { leaseMs: 600, concurrency: 1 });
    const id = await add(db, "t.long");
    const a = runnerOn(db, [long.definition], { node: "n1", clock });
    await a.start();
    await until(async () => long.runs.size === 1 && (await rowOf(db, id)).state === "running");
    const claimed = (await rowOf(db, id)).lease_until!;
    clock.advance(400);
    await until(async () => (await rowOf(db, id)).lease_until! > claimed, 400);
    clock.advance(400);
    const b = runnerOn(db, [other.definition], { node: "n2", clock });
    await b.start();
    await later(20);
    expect(other.runs.size).toBe(0);
    expect(await rowOf(db, id)).toMatchObject({ state: "running", attempts: 1, lease_node: "n1" });
    long.releaseAll();
    await until(async () => (await rowOf(db, id)).state === "done");
    await Promise.all([a.stop(), b.stop()]);
  });

  test("a runner does not take back its own run that is still working when the clock passes its lease", async () => {
    const { db, clock } = await fresh();
    const held = heldKind("t.mine", { leaseMs: 60_000 });
    const id = await add(db, "t.mine");
    const runner = runnerOn(db, [held.definition], { node: "n1", clock });
    await runner.start();
    await until(async () => held.runs.size === 1 && (await rowOf(db, id)).state === "running");
    clock.advance(60_001);
    runner.wake();
    await later(30);
    expect(held.runs.get(id)).toBe(1);
    expect(await rowOf(db, id)).toMatchObject({ state: "running", attempts: 1 });
    held.releaseAll();
    await until(async () => (await rowOf(db, id)).state === "done");
    await runner.stop();
  });

  test("a fresh start of the same node requeues the runs its dead runner left at once", async () => {
    const { db, clock } = await fresh();
    const ran: string[] = [];
    const kind = defineJob({
      name: "t.crashed",
      schema: z.unknown(),
      handler: (_p, { jobId }) => void ran.push(jobId),
    });
    const id = await add(db, "t.crashed");
    await leftRunning(db, id, "n1", new Date(clock.now().getTime() + 300_000));
    const runner = runnerOn(db, [kind], { node: "n1", clock });
    await runner.start();
    await until(async () => (await rowOf(db, id)).state === "done");
    expect(ran).toEqual([id]);
    expect((await rowOf(db, id)).attempts).toBe(2);
    await runner.stop();
  });

  test("another node's run with a live lease is left alone at start, and taken back once its lease ends", async () => {
    const { db, clock } = await fresh();
    const ran: string[] = [];
    const kind = defineJob({
      name: "t.elsewhere",
      schema: z.unknown(),
      handler: (_p, { jobId }) => void ran.push(jobId),
    });
    const id = await add(db, "t.elsewhere");
    await leftRunning(db, id, "n2", new Date(clock.now().getTime() + 300_000));
    const runner = runnerOn(db, [kind], { node: "n1", clock });
    await runner.start();
    await later(20);
    expect(await runner.drain()).toBe(0);
    expect(await rowOf(db, id)).toMatchObject({ state: "running", attempts: 1, lease_node: "n2" });
    expect(ran).toEqual([]);

    // That node died: after its lease, any runner's turn takes the job back and runs it.
    clock.advance(300_001);
    expect(await runner.drain()).toBe(1);
    expect(ran).toEqual([id]);
    expect(await rowOf(db, id)).toMatchObject({ state: "done", attempts: 2, lease_node: "n1" });
    await runner.stop();
  });

  test("an expired run on its last attempt fails instead of running again", async () => {
    const { db, clock } = await fresh();
    const kind = defineJob({ name: "t.last", schema: z.unknown(), retry: { maxAttempts: 1 }, handler() {} });
    const id = await add(db, "t.last");
    await leftRunning(db, id, "n2", new Date(clock.now().getTime() + 1000));
    const runner = runnerOn(db, [kind], { node: "n1", clock });
    clock.advance(1001);
    expect(await runner.drain()).toBe(0);
    expect(await rowOf(db, id)).toMatchObject({ state: "failed", last_error: "interrupted on its last attempt" });
  });

  test("a run whose lease was taken over while it ran is aborted at its next heartbeat", async () => {
    const { db, clock } = await fresh();
    let aborted = false;
    const kind = defineJob({
      name: "t.taken",
      schema: z.unknown(),
      leaseMs: 300,
      concurrency: 1,
      handler: (_p, { signal }) =>
        new Promise<void>(() =>
          signal.addEventListener("abort", () => {
            aborted = true;
          }),
        ),
    });
    const id = await add(db, "t.taken");
    const runner = runnerOn(db, [kind], { node: "n1", clock });
    await runner.start();
    await until(async () => (await rowOf(db, id)).state === "running");
    // Another runner took it over (as after a stall past the lease): a new claim, a new token.
    await execute(
      db,
      sql`UPDATE jobs SET lease_owner = 'other', lease_node = 'n2', lease_token = 'newer' WHERE id = ${id}`,
    );
    await until(() => aborted, 250);
    expect(runner.stats().running["t.taken"]).toBe(0);
    expect(await rowOf(db, id)).toMatchObject({ state: "running", lease_token: "newer" });
    await runner.stop();
  });
});
