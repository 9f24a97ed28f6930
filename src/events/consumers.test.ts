import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startTestDesk } from "../../test/harness";
import { createWorkspaceWithOwner } from "../../test/factories";
import { openDatabase, type Db } from "../db/database";
import { createRuntime } from "../db/runtime";
import { migrate } from "../db/migrate";
import { withTx } from "../db/tx";
import { manualClock } from "../lib/clock";
import { createLogger } from "../lib/logger";
import { migrations } from "../../migrations/index";
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

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function freshDb(): { db: Db; path: string } {
  const dir = mkdtempSync(join(tmpdir(), "desk-consumers-"));
  dirs.push(dir);
  const path = join(dir, "desk.db");
  const db = openDatabase(path, createRuntime());
  migrate(db.$client, migrations);
  createEffectsTable(db);
  return { db, path };
}

const runnerOf = <D>(db: Db, consumers: Consumer<D>[], deps: D) =>
  createConsumerRunner({ db, logger: createLogger("silent"), clock: manualClock(), deps, consumers });

const effects = (db: Db) =>
  db.$client
    .query<{ event_id: string; seq: number }, []>("SELECT event_id, seq FROM test_effects ORDER BY rowid")
    .all();

describe("durable event consumers", () => {
  test("pass over a quiet workspace's events without handling them, until an event or the owner says it changed", async () => {
    const { db } = freshDb();
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
    storeEvents(db, "w1", ["test.item", "test.item", "test.item"]);
    storeEvents(db, "w2", ["test.item"]);
    const runner = runnerOf(db, [consumer], {});
    expect(await runner.drain()).toBe(1);
    // Asked once per workspace, not per event.
    expect(asked).toBe(2);
    const cursor = () => db.$client.query<{ n: number }, []>("SELECT last_rowid AS n FROM event_consumers").get()!.n;
    const newest = () => db.$client.query<{ n: number }, []>("SELECT max(rowid) AS n FROM events").get()!.n;
    expect(cursor()).toBe(newest());
    // The state changes with its own event: events after it are handled; those before it were not.
    active.add("w1");
    storeEvents(db, "w1", ["test.item", "test.settings", "test.item"]);
    expect(await runner.drain()).toBe(1);
    expect(effects(db)).toHaveLength(2);
    // A change without an event of its own forgets the answer through reactionStateChanged.
    active.delete("w2");
    reactionStateChanged(db, "w2");
    storeEvents(db, "w2", ["test.item"]);
    expect(await runner.drain()).toBe(0);
    expect(runner.stats()).toEqual([{ name: "test.recorder", handled: 2, skipped: 6, ms: expect.any(Number) }]);
    expect(cursor()).toBe(newest());
  });

  test("report each cursor's lag in events and seconds", async () => {
    const { db } = freshDb();
    storeEvents(db, "w1", ["test.item", "test.item"]);
    const runner = runnerOf(db, [recordingConsumer()], {});
    await runner.drain();
    const now = new Date("2026-01-01T00:00:30.000Z");
    expect(consumerLag(db, now)).toEqual([{ name: "test.recorder", eventsBehind: 0, secondsBehind: 0 }]);
    storeEvents(db, "w1", ["test.item", "test.other", "test.item"]);
    expect(consumerLag(db, now)).toEqual([{ name: "test.recorder", eventsBehind: 3, secondsBehind: 30 }]);
  });

  test("handle their types in stored order, across workspaces, each event once", async () => {
    const { db } = freshDb();
    storeEvents(db, "w1", ["test.item", "test.other", "test.item"]);
    storeEvents(db, "w2", ["test.item"]);
    storeEvents(db, "w1", ["test.item"]);
    const runner = runnerOf(db, [recordingConsumer()], {});
    expect(await runner.drain()).toBe(4);
    const order = db.$client
      .query<{ id: string }, []>("SELECT id FROM events WHERE type = 'test.item' ORDER BY rowid")
      .all()
      .map((r) => r.id);
    expect(effects(db).map((e) => e.event_id)).toEqual(order);
    // A second drain finds nothing new: the cursor was stored with the effects.
    expect(await runner.drain()).toBe(0);
    storeEvents(db, "w2", ["test.item"]);
    expect(await runner.drain()).toBe(1);
    expect(effects(db)).toHaveLength(5);
  });

  test("the cursor moves past events of other types, so the next scan does not read them again", async () => {
    const { db } = freshDb();
    storeEvents(db, "w1", ["test.item", ...Array.from({ length: 50 }, () => "test.other")]);
    const runner = runnerOf(db, [recordingConsumer()], {});
    expect(await runner.drain()).toBe(1);
    const cursor = () =>
      db.$client.query<{ last_rowid: number }, []>("SELECT last_rowid FROM event_consumers").get()?.last_rowid;
    const newest = () => db.$client.query<{ r: number }, []>("SELECT max(rowid) AS r FROM events").get()?.r;
    expect(cursor()).toBe(newest());
    storeEvents(db, "w1", ["test.other", "test.item"]);
    expect(await runner.drain()).toBe(1);
    expect(cursor()).toBe(newest());
    expect(effects(db)).toHaveLength(2);
  });

  test("a process killed mid-way resumes after its last committed event: nothing lost, nothing repeated", async () => {
    const { db, path } = freshDb();
    storeEvents(
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
    expect(effects(db).map((e) => e.seq)).toEqual([1, 2, 3, 4]);
    await runnerOf(db, [recordingConsumer()], {}).drain();
    expect(effects(db).map((e) => e.seq)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
  });

  test("a failing event is retried later without advancing the cursor; other consumers go on", async () => {
    const { db } = freshDb();
    storeEvents(db, "w1", ["test.item", "test.item"]);
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
    expect(effects(db)).toHaveLength(2);
    fail = false;
    clock.advance(60_000);
    expect(await runner.drain()).toBe(2);
  });

  test("a consumer started later begins at the newest event unless it asks for the beginning", async () => {
    const { db } = freshDb();
    storeEvents(db, "w1", ["test.item", "test.item"]);
    const seen: number[] = [];
    const late = defineConsumer({
      name: "test.late",
      events: [anyEvent("test.item")],
      handle: (_tx, event) => void seen.push(event.seq),
    });
    const runner = runnerOf(db, [late], {});
    expect(await runner.drain()).toBe(0);
    storeEvents(db, "w1", ["test.item"]);
    await runner.drain();
    expect(seen).toEqual([3]);
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
      handle: (tx, event) => void appendEvent(tx, anyEvent("test.ping"), { workspaceId: event.workspace_id, data: {} }),
    });
    const runner = createConsumerRunner({
      db: desk.deps.db,
      logger: createLogger("silent"),
      clock: desk.deps.clock,
      deps: desk.deps.db,
      consumers: [echo],
    });
    runner.start();
    try {
      withTx(desk.deps.db, (tx) => appendEvent(tx, anyEvent("test.ping"), { workspaceId: workspace.id, data: {} }));
      const chain = () =>
        desk.deps.db.$client
          .query<{ cause_consumer: string | null; cause_depth: number }, [string]>(
            "SELECT cause_consumer, cause_depth FROM events WHERE workspace_id = ? AND type = 'test.ping' ORDER BY seq",
          )
          .all(workspace.id);
      const deadline = Date.now() + 3000;
      while (chain().length < MAX_CAUSE_DEPTH + 1 && Date.now() < deadline) await Bun.sleep(5);
      await Bun.sleep(50);
      expect(chain()).toEqual([
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
