import { afterAll, describe, expect, test } from "bun:test";
import { sql } from "drizzle-orm";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createLogger } from "../lib/logger";
import { createRuntime } from "./runtime";
import { openDatabase } from "./engine";
import { createReadPool } from "./read-pool";
import { transact } from "./tx";
import { countRead, sumRead, writeRead } from "../../test/kit/read-pool";

const dir = mkdtempSync(join(tmpdir(), "desk-reads-"));
const path = join(dir, "desk.db");
const db = openDatabase(path, createRuntime());
afterAll(() => {
  db.$client.close();
  rmSync(dir, { recursive: true, force: true });
});

const poolOf = (perWorkspace: number, queued: number) =>
  createReadPool({
    db,
    path,
    workers: 1,
    budgetMs: 5000,
    perWorkspace,
    queued,
    spawn: () => new Worker(new URL("../read-worker.ts", import.meta.url)),
    logger: createLogger("silent"),
    modules: [new URL("../../test/kit/read-pool.ts", import.meta.url).href],
  });

describe("read pool", () => {
  test("answers match the same read in this thread; full queues answer 429 per workspace and in total", async () => {
    const pool = poolOf(2, 3);
    try {
      const a1 = pool.run(sumRead, "ws-a", { n: 1 });
      const a2 = pool.run(sumRead, "ws-a", { n: 2 });
      const a3 = pool.run(sumRead, "ws-a", { n: 3 });
      const b1 = pool.run(sumRead, "ws-b", { n: 4 });
      const c1 = pool.run(sumRead, "ws-c", { n: 5 });
      expect(await a3.catch((e) => e)).toMatchObject({ status: 429, code: "read_queue_full" });
      expect(await c1.catch((e) => e)).toMatchObject({ status: 429, code: "read_queue_full" });
      const inThread: number[] = await Promise.all([1, 2, 4].map((n) => sumRead.run(db, { n })));
      expect(await Promise.all([a1, a2, b1])).toEqual([inThread[0]!, inThread[1]!, inThread[2]!]);
      expect(pool.running()).toBe(1);
      // Both workspaces' slots are free again.
      expect(await pool.run(sumRead, "ws-a", { n: 9 })).toBe(10);
    } finally {
      pool.stop();
    }
  });

  test("a read asked for after a change in this thread sees it, though the change commits when the turn ends", async () => {
    db.$client.run("CREATE TABLE seen_rows (a)");
    const pool = poolOf(4, 8);
    try {
      expect(await pool.run(countRead, "ws-a", { table: "seen_rows" })).toBe(0);
      await transact(db, (tx) => {
        tx.run(sql`INSERT INTO seen_rows VALUES (1)`);
      });
      const read = pool.run(countRead, "ws-a", { table: "seen_rows" });
      // The turn stays open (its batch uncommitted) long enough for a started worker to answer.
      Bun.sleepSync(200);
      expect(await read).toBe(1);
    } finally {
      pool.stop();
    }
  });

  test("a worker's connection is read-only", async () => {
    const pool = poolOf(4, 8);
    try {
      const error = await pool.run(writeRead, "ws-a", {}).catch((e: Error) => e);
      expect(String(error)).toContain("CREATE TABLE never_made");
      expect(db.$client.query("SELECT name FROM sqlite_master WHERE name = 'never_made'").all()).toEqual([]);
    } finally {
      pool.stop();
    }
  });
});
