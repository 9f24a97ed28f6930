import { describe, expect, test } from "bun:test";
import { openTestDatabase } from "../../test/kit/database";
import { join } from "node:path";
import { startTestDesk } from "../../test/harness";
import { createWorkspaceWithOwner } from "../../test/factories";
import { sql } from "drizzle-orm";
import type { Db } from "../db/database";
import { rowsOf } from "../db/store";
import { transact } from "../db/tx";
import { manualClock } from "../lib/clock";
import { createLogger } from "../lib/logger";
import { anyEvent } from "../../test/kit/events";
import { appendEvent } from "./append";
import {
  consumerLag,
  createConsumerRunner,
  defineConsumer,
  MAX_CAUSE_DEPTH,
  reactionStateChanged,
  type Consumer,
} from "./consumers";
import { createEffectsTable, recordingConsumer, storeEvents } from "../../test/kit/consumers";
import { onPostgres } from "../../test/kit/postgres";

/** A migrated database of its own, on the engine the tests run on, with the effects table. */
async function freshDb(): Promise<{ db: Db; path: string }> {
  const { db, where } = await openTestDatabase();
  await createEffectsTable(db);
  return { db, path: where };
}

/**
 * The effects in the order they were stored: SQLite's rowid; on PostgreSQL the row's place in its
 * heap (the table only ever gets inserts, so that is their order too).
 */
const insertionOrder = sql.raw(onPostgres ? "ctid" : "rowid");

const runnerOf = <D>(db: Db, consumers: Consumer<D>[], deps: D) =>
  createConsumerRunner({ db, logger: createLogger("silent"), clock: manualClock(), deps, consumers });

/** Workspaces where the consumer's cursor is short of the event store's counter. */
const behindIn = async (db: Db, consumer = "test.recorder") =>
  (
    await rowsOf<{ workspace_id: string }>(
      db,
      sql`SELECT s.workspace_id FROM event_seqs s
       LEFT JOIN event_consumer_cursors c ON c.consumer = ${consumer} AND c.workspace_id = s.workspace_id
       WHERE s.last_seq > coalesce(c.last_seq, 0)`,
    )
  ).map((r) => r.workspace_id);

const effects = async (db: Db) =>
  await rowsOf<{ event_id: string; seq: number }>(
    db,
    sql`SELECT event_id, seq FROM test_effects ORDER BY ${insertionOrder}`,
  );

describe("durable event consumers", () => {
  test("pass over a quiet workspace's events without handling them, until an event or the owner says it changed", async () => {
    const { db } = await freshDb();
    const active = new Set(["w2"]);
    let asked = 0;
    const consumer: Consumer<unknown> = {
      ...recordingConsumer(),
      quiet: {
        when: (_deps, workspaceId) => {
          asked++;
          return !active.has(workspaceId);
        },
        changedBy: [anyEvent("test.settings")],
      },
    };
    await storeEvents(db, "w1", ["test.item", "test.item", "test.item"]);
    await storeEvents(db, "w2", ["test.item"]);
    const runner = runnerOf(db, [consumer], {});
    expect(await runner.drain()).toBe(1);
    // Asked once per workspace, not per event.
    expect(asked).toBe(2);
    expect(await behindIn(db)).toEqual([]);
    // The state changes with its own event: events after it are handled; those before it were not.
    active.add("w1");
    await storeEvents(db, "w1", ["test.item", "test.settings", "test.item"]);
    expect(await runner.drain()).toBe(1);
    expect(await effects(db)).toHaveLength(2);
    // A change without an event of its own forgets the answer through reactionStateChanged.
    active.delete("w2");
    reactionStateChanged(db, "w2");
    await storeEvents(db, "w2", ["test.item"]);
    expect(await runner.drain()).toBe(0);
    expect(runner.stats()).toEqual([{ name: "test.recorder", handled: 2, skipped: 6, ms: expect.any(Number) }]);
    expect(await behindIn(db)).toEqual([]);
  });

  test("report each cursor's lag in events and seconds", async () => {
    const { db } = await freshDb();
    await storeEvents(db, "w1", ["test.item", "test.item"]);
    const runner = runnerOf(db, [recordingConsumer()], {});
    await runner.drain();
    const now = new Date("2026-01-01T00:00:30.000Z");
    expect(await consumerLag(db, now)).toEqual([{ name: "test.recorder", eventsBehind: 0, secondsBehind: 0 }]);
    await storeEvents(db, "w1", ["test.item", "test.other", "test.item"]);
    expect(await consumerLag(db, now)).toEqual([{ name: "test.recorder", eventsBehind: 3, secondsBehind: 30 }]);
  });

  test("handle their types in seq order within each workspace, each event once", async () => {
    const { db } = await freshDb();
    await storeEvents(db, "w1", ["test.item", "test.other", "test.item"]);
    await storeEvents(db, "w2", ["test.item"]);
    await storeEvents(db, "w1", ["test.item"]);
    const runner = runnerOf(db, [recordingConsumer()], {});
    expect(await runner.drain()).toBe(4);
    // Workspaces are independent (several writers give no order across them); within one, seq order.
    const handledIn = async (workspaceId: string) =>
      (
        await rowsOf<{ id: string }>(
          db,
          sql`SELECT e.id FROM test_effects t JOIN events e ON e.id = t.event_id WHERE e.workspace_id = ${workspaceId} ORDER BY t.${insertionOrder}`,
        )
      ).map((r) => r.id);
    const stored = async (workspaceId: string) =>
      (
        await rowsOf<{ id: string }>(
          db,
          sql`SELECT id FROM events WHERE workspace_id = ${workspaceId} AND type = 'test.item' ORDER BY seq`,
        )
      ).map((r) => r.id);
    expect(await handledIn("w1")).toEqual(await stored("w1"));
    expect(await handledIn("w2")).toEqual(await stored("w2"));
    expect(await effects(db)).toHaveLength(4);
    // A second drain finds nothing new: the cursor was stored with the effects.
    expect(await runner.drain()).toBe(0);
    await storeEvents(db, "w2", ["test.item"]);
    expect(await runner.drain()).toBe(1);
    expect(await effects(db)).toHaveLength(5);
  });

  test("the cursor moves past events of other types, so the next scan does not read them again", async () => {
    const { db } = await freshDb();
    await storeEvents(db, "w1", ["test.item", ...Array.from({ length: 50 }, () => "test.other")]);
    const runner = runnerOf(db, [recordingConsumer()], {});
    expect(await runner.drain()).toBe(1);
    const cursor = async () =>
      (
        await rowsOf<{ last_seq: number }>(
          db,
          sql`SELECT last_seq FROM event_consumer_cursors WHERE workspace_id = 'w1'`,
        )
      )[0]?.last_seq;
    expect(await cursor()).toBe(51);
    await storeEvents(db, "w1", ["test.other", "test.item"]);
    expect(await runner.drain()).toBe(1);
    expect(await cursor()).toBe(53);
    expect(await effects(db)).toHaveLength(2);
  });

  // The fixture opens the SQLite file it is given (SQLite-only, as the crash fixtures are).
  test.skipIf(onPostgres)(
    "a process killed mid-way resumes after its last committed event: nothing lost, nothing repeated",
    async () => {
      const { db, path } = await freshDb();
      await storeEvents(
        db,
        "w1",
        Array.from({ length: 9 }, () => "test.item"),
      );
      const child = Bun.spawn(["bun", join(import.meta.dir, "consumers.crash-fixture.ts"), path], {
        stdout: "inherit",
        stderr: "inherit",
      });
      expect(await child.exited).not.toBe(0);
      // Pairs of events committed together; the pair holding the fifth died with the process.
      expect((await effects(db)).map((e) => e.seq)).toEqual([1, 2, 3, 4]);
      await runnerOf(db, [recordingConsumer()], {}).drain();
      expect((await effects(db)).map((e) => e.seq)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
    },
  );

  test("a failing event is retried later without advancing the cursor; other consumers go on", async () => {
    const { db } = await freshDb();
    await storeEvents(db, "w1", ["test.item", "test.item"]);
    let fail = true;
    const flaky = defineConsumer({
      name: "test.flaky",
      events: [anyEvent("test.item")],
      from: "beginning",
      handle() {
        if (fail) throw new Error("not yet");
      },
    });
    const clock = manualClock();
    const runner = createConsumerRunner({
      db,
      logger: createLogger("silent"),
      clock,
      deps: {},
      consumers: [flaky, recordingConsumer()],
    });
    expect(await runner.drain()).toBe(2);
    expect(await effects(db)).toHaveLength(2);
    fail = false;
    clock.advance(60_000);
    expect(await runner.drain()).toBe(2);
  });

  test("a consumer started later begins at the newest event unless it asks for the beginning", async () => {
    const { db } = await freshDb();
    await storeEvents(db, "w1", ["test.item", "test.item"]);
    const seen: number[] = [];
    const late = defineConsumer({
      name: "test.late",
      events: [anyEvent("test.item")],
      handle: (_tx, event) => void seen.push(event.seq),
    });
    const runner = runnerOf(db, [late], {});
    expect(await runner.drain()).toBe(0);
    await storeEvents(db, "w1", ["test.item"]);
    await runner.drain();
    expect(seen).toEqual([3]);
  });
});

describe("consumer cursors per workspace", () => {
  test("a workspace's failing event waits for its retry without holding back other workspaces", async () => {
    const { db } = await freshDb();
    await storeEvents(db, "w1", ["test.item", "test.item"]);
    await storeEvents(db, "w2", ["test.item", "test.item"]);
    const handled: string[] = [];
    let failIn: string | null = "w1";
    const picky = defineConsumer({
      name: "test.picky",
      events: [anyEvent("test.item")],
      from: "beginning",
      handle(_tx, event) {
        if (event.workspace_id === failIn) throw new Error("not yet");
        handled.push(`${event.workspace_id}#${event.seq}`);
      },
    });
    const clock = manualClock();
    const runner = createConsumerRunner({ db, logger: createLogger("silent"), clock, deps: {}, consumers: [picky] });
    expect(await runner.drain()).toBe(2);
    expect(handled).toEqual(["w2#1", "w2#2"]);
    await storeEvents(db, "w2", ["test.item"]);
    expect(await runner.drain()).toBe(1);
    expect(await behindIn(db, "test.picky")).toEqual(["w1"]);
    failIn = null;
    clock.advance(2_000);
    expect(await runner.drain()).toBe(2);
    expect(handled).toEqual(["w2#1", "w2#2", "w2#3", "w1#1", "w1#2"]);
  });

  test("a consumer added to a running desk starts at each workspace's newest event; a workspace created later is new to it", async () => {
    const { db } = await freshDb();
    await storeEvents(db, "w1", ["test.item", "test.item"]);
    await storeEvents(db, "w2", ["test.item"]);
    const seen: string[] = [];
    const late = defineConsumer({
      name: "test.late",
      events: [anyEvent("test.item")],
      handle: (_tx, event) => void seen.push(`${event.workspace_id}#${event.seq}`),
    });
    const runner = runnerOf(db, [late], {});
    expect(await runner.drain()).toBe(0);
    await storeEvents(db, "w3", ["test.item", "test.item"]);
    await storeEvents(db, "w1", ["test.item"]);
    expect(await runner.drain()).toBe(3);
    expect(seen.sort()).toEqual(["w1#3", "w3#1", "w3#2"]);
    // Known from now on: a restart does not place it at "now" again.
    await storeEvents(db, "w2", ["test.item"]);
    expect(await runnerOf(db, [late], {}).drain()).toBe(1);
    expect(seen).toContain("w2#2");
  });

  test("lag sums the events past each workspace's cursor and ages the oldest of them", async () => {
    const { db } = await freshDb();
    const runner = runnerOf(db, [recordingConsumer()], {});
    await runner.drain();
    await storeEvents(db, "w1", ["test.item", "test.other"], "2026-01-01T00:00:10.000Z");
    await storeEvents(db, "w2", ["test.other"], "2026-01-01T00:00:00.000Z");
    const now = new Date("2026-01-01T00:00:30.000Z");
    expect(await consumerLag(db, now)).toEqual([{ name: "test.recorder", eventsBehind: 3, secondsBehind: 30 }]);
    await runner.drain();
    expect(await consumerLag(db, now)).toEqual([{ name: "test.recorder", eventsBehind: 0, secondsBehind: 0 }]);
  });

  test("a started runner's lag, read from its pending workspaces, equals the stored cursors'", async () => {
    const { db } = await freshDb();
    await storeEvents(db, "w1", ["test.item", "test.item"], "2026-01-01T00:00:05.000Z");
    await storeEvents(db, "w2", ["test.item"]);
    const stuck = defineConsumer({
      name: "test.stuck",
      events: [anyEvent("test.item")],
      from: "beginning",
      handle(_tx, event) {
        if (event.workspace_id === "w1") throw new Error("stuck");
      },
    });
    const runner = createConsumerRunner({
      db,
      logger: createLogger("silent"),
      clock: manualClock(),
      deps: {},
      consumers: [stuck],
      pollMs: 60_000,
    });
    const now = new Date("2026-01-01T00:00:30.000Z");
    const expected = [{ name: "test.stuck", eventsBehind: 2, secondsBehind: 25 }];
    await runner.start();
    try {
      const deadline = Date.now() + 3000;
      while ((await behindIn(db, "test.stuck")).length > 1 && Date.now() < deadline) await Bun.sleep(10);
      expect(await behindIn(db, "test.stuck")).toEqual(["w1"]);
      expect(await consumerLag(db, now)).toEqual(expected);
    } finally {
      await runner.stop();
    }
    expect(await consumerLag(db, now)).toEqual(expected);
  });

  test("a running consumer finds events another process stored (no commit here told it) at its poll", async () => {
    const { db } = await freshDb();
    const runner = createConsumerRunner({
      db,
      logger: createLogger("silent"),
      clock: manualClock(),
      deps: {},
      consumers: [recordingConsumer()],
      pollMs: 20,
    });
    await runner.start();
    try {
      await Bun.sleep(30);
      await storeEvents(db, "w9", ["test.item"]);
      const deadline = Date.now() + 3000;
      while ((await effects(db)).length === 0 && Date.now() < deadline) await Bun.sleep(10);
      expect((await effects(db)).map((e) => e.seq)).toEqual([1]);
    } finally {
      await runner.stop();
    }
  });
});

describe("consumers in a running desk", () => {
  test("are woken by commits, stamp the events they cause, and a reaction loop stops at the depth bound", async () => {
    const desk = await startTestDesk();
    const { workspace } = await createWorkspaceWithOwner(desk);
    const echo = defineConsumer({
      name: "test.echo",
      events: [anyEvent("test.ping")],
      // Reacts to its own effect: without the bound this would never end.
      handle: async (tx, event) => {
        await appendEvent(tx, anyEvent("test.ping"), { workspaceId: event.workspace_id, data: {} });
      },
    });
    const runner = createConsumerRunner({
      db: desk.deps.db,
      logger: createLogger("silent"),
      clock: desk.deps.clock,
      deps: desk.deps.db,
      consumers: [echo],
    });
    await runner.start();
    try {
      await transact(
        desk.deps.db,
        async (tx) => await appendEvent(tx, anyEvent("test.ping"), { workspaceId: workspace.id, data: {} }),
      );
      const chain = async () =>
        await rowsOf<{ cause_consumer: string | null; cause_depth: number }>(
          desk.deps.db,
          sql`SELECT cause_consumer, cause_depth FROM events WHERE workspace_id = ${workspace.id} AND type = 'test.ping' ORDER BY seq`,
        );
      const deadline = Date.now() + 3000;
      while ((await chain()).length < MAX_CAUSE_DEPTH + 1 && Date.now() < deadline) await Bun.sleep(5);
      await Bun.sleep(50);
      expect(await chain()).toEqual([
        { cause_consumer: null, cause_depth: 0 },
        { cause_consumer: "test.echo", cause_depth: 1 },
        { cause_consumer: "test.echo", cause_depth: 2 },
        { cause_consumer: "test.echo", cause_depth: 3 },
      ]);
      expect(await runner.drain()).toBe(0);
    } finally {
      await runner.stop();
    }
  });
});
