import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openDatabase, type Db } from "../db/database";
import { batchedWrite, flushBatchedWrites } from "./batched-writes";

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

function freshDb(): Db {
  const dir = mkdtempSync(join(tmpdir(), "desk-batch-"));
  dirs.push(dir);
  const db = openDatabase(join(dir, "desk.db"));
  db.$client.exec("CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT NOT NULL)");
  return db;
}

const ids = (db: Db) => db.$client.query<{ id: number }, []>("SELECT id FROM notes ORDER BY id").all().map((r) => r.id);
const insert = (db: Db, id: number) => () => void db.$client.run("INSERT INTO notes (id, body) VALUES (?, 'x')", [id]);

describe("batchedWrite", () => {
  test("writes queued in one turn commit together in one transaction, after the turn", async () => {
    const db = freshDb();
    const seenInTransaction: boolean[] = [];
    const writes = [1, 2, 3].map((id) =>
      batchedWrite(db, () => {
        seenInTransaction.push(db.$client.inTransaction);
        insert(db, id)();
      }),
    );
    expect(ids(db)).toEqual([]);
    await Promise.all(writes);
    expect(ids(db)).toEqual([1, 2, 3]);
    expect(seenInTransaction).toEqual([true, true, true]);
  });

  test("a failing write rejects alone; the others in its batch still commit", async () => {
    const db = freshDb();
    insert(db, 2)();
    const results = await Promise.allSettled([batchedWrite(db, insert(db, 1)), batchedWrite(db, insert(db, 2)), batchedWrite(db, insert(db, 3))]);
    expect(results.map((r) => r.status)).toEqual(["fulfilled", "rejected", "fulfilled"]);
    expect(ids(db)).toEqual([1, 2, 3]);
  });

  test("flushBatchedWrites commits what is queued at once", async () => {
    const db = freshDb();
    const write = batchedWrite(db, insert(db, 7));
    flushBatchedWrites(db);
    expect(ids(db)).toEqual([7]);
    await write;
  });
});
