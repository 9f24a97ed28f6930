import { afterAll, describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { sql } from "drizzle-orm";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Db } from "./database";
import { openDatabase } from "./engine";
import { createRuntime } from "./runtime";
import {
  afterCommit,
  batchedWrite,
  beforeEachCommit,
  commitPending,
  hasPendingCommit,
  insideChange,
  shareTurn,
  untilCommitted,
  transact,
} from "./tx";

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** A database with a notes table, and a second connection that sees only what is committed. */
function freshDb(): { db: Db; other: Database } {
  const dir = mkdtempSync(join(tmpdir(), "desk-tx-"));
  dirs.push(dir);
  const db = openDatabase(join(dir, "desk.db"), createRuntime());
  db.$client.exec("CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT NOT NULL)");
  db.$client.exec("CREATE TABLE parents (id INTEGER PRIMARY KEY)");
  db.$client.exec(
    "CREATE TABLE children (id INTEGER PRIMARY KEY, parent_id INTEGER REFERENCES parents(id) DEFERRABLE INITIALLY DEFERRED)",
  );
  return { db, other: new Database(join(dir, "desk.db"), { readonly: true }) };
}

const ids = (conn: Database) =>
  conn
    .query<{ id: number }, []>("SELECT id FROM notes ORDER BY id")
    .all()
    .map((r) => r.id);
const insert = (db: Db, id: number) => () => void db.$client.run("INSERT INTO notes (id, body) VALUES (?, 'x')", [id]);

describe("group commit", () => {
  test("changes of one turn commit together when the turn ends; afterCommit runs after the commit", async () => {
    const { db, other } = freshDb();
    const seenByOtherAtCallback: number[][] = [];
    for (const id of [1, 2, 3]) {
      await transact(db, (tx) => {
        insert(db, id)();
        afterCommit(tx, () => seenByOtherAtCallback.push(ids(other)));
      });
    }
    expect(ids(db.$client)).toEqual([1, 2, 3]); // the writing connection sees its own changes
    expect(ids(other)).toEqual([]); // nobody else does yet
    expect(seenByOtherAtCallback).toEqual([]);
    await untilCommitted(db);
    expect(ids(other)).toEqual([1, 2, 3]);
    expect(seenByOtherAtCallback).toEqual([
      [1, 2, 3],
      [1, 2, 3],
      [1, 2, 3],
    ]);
  });

  test("a failing change rolls back alone, and its afterCommit callbacks never run", async () => {
    const { db, other } = freshDb();
    const callbacks: number[] = [];
    await transact(db, (tx) => {
      insert(db, 1)();
      afterCommit(tx, () => callbacks.push(1));
    });
    expect(
      async () =>
        await transact(db, (tx) => {
          insert(db, 2)();
          afterCommit(tx, () => callbacks.push(2));
          insert(db, 1)(); // duplicate key
        }),
    ).toThrow();
    await transact(db, (tx) => {
      insert(db, 3)();
      afterCommit(tx, () => callbacks.push(3));
    });
    await untilCommitted(db);
    expect(ids(other)).toEqual([1, 3]);
    expect(callbacks).toEqual([1, 3]);
  });

  test("a commit that fails fails every change of its batch: waiters see the error, nothing is stored or published", async () => {
    const { db, other } = freshDb();
    const callbacks: string[] = [];
    await transact(db, (tx) => {
      insert(db, 1)();
      afterCommit(tx, () => callbacks.push("note"));
    });
    // A deferred foreign key is only checked at COMMIT: this change is accepted, then sinks the batch.
    await transact(db, () => void db.$client.run("INSERT INTO children (id, parent_id) VALUES (1, 99)"));
    const waiting = untilCommitted(db);
    commitPending(db);
    await expect(waiting).rejects.toThrow(/FOREIGN KEY/);
    expect(callbacks).toEqual([]);
    expect(ids(other)).toEqual([]);
    expect(db.$client.inTransaction).toBe(false);
    // The next change starts a fresh batch.
    await transact(db, insert(db, 5));
    await untilCommitted(db);
    expect(ids(other)).toEqual([5]);
  });

  test("a long synchronous run of changes commits along the way instead of growing one transaction", async () => {
    const { db, other } = freshDb();
    for (let id = 1; id <= 300; id++) await transact(db, insert(db, id));
    // Nothing yielded to the event loop, yet the first 256 are committed.
    expect(ids(other).length).toBe(256);
    commitPending(db);
    expect(ids(other).length).toBe(300);
  });

  test("nothing pending: untilCommitted settles at once", async () => {
    const { db } = freshDb();
    let settled = false;
    void untilCommitted(db).then(() => (settled = true));
    await Promise.resolve();
    expect(settled).toBe(true);
  });
});

describe("shared turns", () => {
  test("the reads of a turn share one transaction; only a write makes answers wait for a commit", async () => {
    const { db, other } = freshDb();
    shareTurn(db);
    expect(db.$client.inTransaction).toBe(true);
    expect(ids(db.$client)).toEqual([]);
    expect(hasPendingCommit(db)).toBe(false); // reading alone: nothing to wait for
    await transact(db, insert(db, 1)); // a change later in the turn commits the reads and writes in a batch of its own
    expect(hasPendingCommit(db)).toBe(true);
    expect(ids(other)).toEqual([]);
    await untilCommitted(db);
    expect(db.$client.inTransaction).toBe(false);
    expect(ids(other)).toEqual([1]);
  });

  test("a change after a turn's reads waits for a write lock another connection holds, instead of failing", async () => {
    const { db, other } = freshDb();
    const path = db.$client.filename;
    // Another process takes SQLite's write lock for 300 ms (a thread of ours would block with us).
    const holder = Bun.spawn(
      [
        process.execPath,
        "-e",
        `const { Database } = require("bun:sqlite"); const d = new Database(${JSON.stringify(path)});
         d.exec("BEGIN IMMEDIATE"); console.log("held"); Bun.sleepSync(300); d.exec("COMMIT");`,
      ],
      { stdout: "pipe" },
    );
    const reader = holder.stdout.getReader();
    expect(new TextDecoder().decode((await reader.read()).value)).toContain("held");
    shareTurn(db);
    expect(ids(db.$client)).toEqual([]); // the turn has read: its transaction holds a snapshot
    // Upgrading that read transaction would answer "database is locked" at once (SQLite calls no
    // busy handler for an upgrade); the change begins its own IMMEDIATE transaction, which waits.
    await transact(db, insert(db, 7));
    await untilCommitted(db);
    expect(ids(other)).toEqual([7]);
    await holder.exited;
  });

  test("a write outside transact in a shared turn is pending too", async () => {
    const { db, other } = freshDb();
    shareTurn(db);
    insert(db, 4)();
    expect(hasPendingCommit(db)).toBe(true);
    await untilCommitted(db);
    expect(ids(other)).toEqual([4]);
  });

  test("requests that never yield still commit along the way", () => {
    const { db, other } = freshDb();
    for (let id = 1; id <= 300; id++) {
      shareTurn(db);
      insert(db, id)();
    }
    expect(ids(other).length).toBeGreaterThanOrEqual(256);
    commitPending(db);
    expect(ids(other).length).toBe(300);
  });
});

describe("beforeEachCommit", () => {
  test("runs once per batch that wrote, inside its transaction and outside every savepoint; not for reads", async () => {
    const { db, other } = freshDb();
    const seen: Array<{ inTransaction: boolean; rows: number[] }> = [];
    const off = beforeEachCommit(db, () =>
      seen.push({ inTransaction: db.$client.inTransaction, rows: ids(db.$client) }),
    );
    await transact(db, insert(db, 1));
    await transact(db, insert(db, 2));
    await untilCommitted(db);
    expect(seen).toEqual([{ inTransaction: true, rows: [1, 2] }]);
    shareTurn(db);
    ids(db.$client);
    await new Promise((resolve) => setImmediate(resolve));
    expect(seen).toHaveLength(1); // a turn that only read
    off();
    await transact(db, insert(db, 3));
    await untilCommitted(db);
    expect(seen).toHaveLength(1);
    expect(ids(other)).toEqual([1, 2, 3]);
  });

  test("a hook that throws fails its batch: nothing of it is stored", async () => {
    const { db, other } = freshDb();
    const off = beforeEachCommit(db, () => {
      throw new Error("index unavailable");
    });
    await transact(db, insert(db, 1));
    const waiting = untilCommitted(db);
    await expect(waiting).rejects.toThrow("index unavailable");
    off();
    expect(ids(other)).toEqual([]);
    expect(db.$client.inTransaction).toBe(false);
  });
});

describe("batchedWrite", () => {
  test("settles once its write is committed; a failing write rejects alone", async () => {
    const { db, other } = freshDb();
    insert(db, 2)();
    const results = await Promise.allSettled([
      batchedWrite(db, insert(db, 1)),
      batchedWrite(db, insert(db, 2)),
      batchedWrite(db, insert(db, 3)),
    ]);
    expect(results.map((r) => r.status)).toEqual(["fulfilled", "rejected", "fulfilled"]);
    expect(ids(other)).toEqual([1, 2, 3]);
  });

  test("commitPending commits what is pending at once", async () => {
    const { db, other } = freshDb();
    await transact(db, insert(db, 7));
    expect(ids(other)).toEqual([]);
    commitPending(db);
    expect(ids(other)).toEqual([7]);
  });
});

describe("bodies that await the store", () => {
  const insertVia = async (tx: Parameters<Parameters<typeof transact>[1]>[0], id: number) =>
    void (await tx.run(sql`INSERT INTO notes (id, body) VALUES (${id}, 'x')`));

  test("run one at a time: another body's writes never land in a body that fails", async () => {
    const { db, other } = freshDb();
    const order: string[] = [];
    const failing = transact(db, async (tx) => {
      await insertVia(tx, 1);
      order.push("a1");
      await insertVia(tx, 2);
      order.push("a2");
      throw new Error("boom");
    });
    const succeeding = transact(db, async (tx) => {
      order.push("b");
      await insertVia(tx, 3);
    });
    expect(await failing.catch((e: Error) => e.message)).toBe("boom");
    await succeeding;
    await untilCommitted(db);
    expect(order).toEqual(["a1", "a2", "b"]);
    expect(ids(other)).toEqual([3]);
  });

  test("a nested call given the outer tx joins it; a body that fails to begin frees the connection", async () => {
    const { db, other } = freshDb();
    await transact(db, async (tx) => {
      await insertVia(tx, 1);
      await transact(tx, async (inner) => await insertVia(inner, 2));
    });
    db.$client.run("PRAGMA query_only = ON");
    await expect(transact(db, async (tx) => await insertVia(tx, 3))).rejects.toThrow();
    db.$client.run("PRAGMA query_only = OFF");
    await transact(db, async (tx) => await insertVia(tx, 4));
    await untilCommitted(db);
    expect(ids(other)).toEqual([1, 2, 4]);
  });

  test("a body woken after the watchdog rolled it back can no longer write through its tx", async () => {
    const { db, other } = freshDb();
    let late: unknown = null;
    const slow = transact(db, async (tx) => {
      await insertVia(tx, 1);
      await Bun.sleep(5);
      await insertVia(tx, 2).catch((error: unknown) => {
        late = error;
      });
    });
    await expect(slow).rejects.toThrow("still pending");
    await untilCommitted(db);
    expect(ids(other)).toEqual([]);
    // Drizzle wraps the refusal in an error of its own.
    expect(String((late as Error | null)?.cause ?? late)).toContain("still pending");
  });
});

describe("nested changes", () => {
  test("a transact on the database from inside a body joins that body's change", async () => {
    const { db, other } = freshDb();
    const failing = transact(db, async () => {
      await transact(db, async (tx) => void (await tx.run(sql`INSERT INTO notes (id, body) VALUES (1, 'x')`)));
      expect(insideChange(db)).toBe(true);
      throw new Error("undo both");
    });
    expect(await failing.catch((e: Error) => e.message)).toBe("undo both");
    expect(insideChange(db)).toBe(false);
    await transact(db, async (tx) => void (await tx.run(sql`INSERT INTO notes (id, body) VALUES (2, 'x')`)));
    await untilCommitted(db);
    expect(ids(other)).toEqual([2]);
  });
});
