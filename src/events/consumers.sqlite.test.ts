import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sql } from "drizzle-orm";
import type { Db } from "../db/database";
import { execute, rowsOf } from "../db/store";
import { manualClock } from "../lib/clock";
import { createLogger } from "../lib/logger";
import { createConsumerRunner, type Consumer } from "./consumers";
import { createEffectsTable, recordingConsumer, storeEvents } from "../../test/kit/consumers";
import { openMigratedDatabase } from "../../test/kit/database.sqlite";

// Consumer cursors against SQLite's global log order (rowid), which PostgreSQL does not have.

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

async function freshDb(): Promise<{ db: Db }> {
  const dir = mkdtempSync(join(tmpdir(), "desk-consumers-"));
  dirs.push(dir);
  const db = openMigratedDatabase(join(dir, "desk.db"));
  await createEffectsTable(db);
  return { db };
}

const runnerOf = <D>(db: Db, consumers: Consumer<D>[], deps: D) =>
  createConsumerRunner({ db, logger: createLogger("silent"), clock: manualClock(), deps, consumers });

const effects = async (db: Db) =>
  await rowsOf<{ event_id: string; seq: number }>(db, sql`SELECT event_id, seq FROM test_effects ORDER BY rowid`);

describe("consumer cursors per workspace", () => {
  test("an event committed after a later-numbered one of another workspace is still handled", async () => {
    const { db } = await freshDb();
    await storeEvents(db, "w1", ["test.item", "test.item"]);
    await execute(db, sql`UPDATE events SET rowid = rowid + 10`);
    const runner = runnerOf(db, [recordingConsumer()], {});
    expect(await runner.drain()).toBe(2);
    // Another writer took a lower position in the log for w2's event but committed it only now
    // (several writers on one database): a cursor on the global order would already be past it.
    await storeEvents(db, "w2", ["test.item"]);
    await execute(db, sql`UPDATE events SET rowid = 5 WHERE workspace_id = 'w2'`);
    expect(await runner.drain()).toBe(1);
    expect((await effects(db)).map((e) => e.seq)).toEqual([1, 2, 1]);
  });
});
