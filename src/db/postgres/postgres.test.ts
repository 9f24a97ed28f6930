import { afterAll, describe, expect, test } from "bun:test";
import { SQL } from "bun";
import { sql } from "drizzle-orm";
import { lineages } from "../../../migrations/lineages";
import { emptyPostgresDatabase, freshPostgresDatabase, onPostgres } from "../../../test/kit/postgres";
import type { Db, Queryable } from "../database";
import { closeDatabase, openDatabase } from "../engine";
import { createRuntime } from "../runtime";
import { execute, rowsOf } from "../store";
import { afterCommit, transact } from "../tx";
import { migratePostgres } from "./migrate";
import { serializationRetries } from "./transact";

// The PostgreSQL engine itself (DECISIONS.md "Past one machine"): run when the suite runs on it.
describe.skipIf(!onPostgres)("PostgreSQL engine", () => {
  const cleanups: Array<() => Promise<void>> = [];
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  });

  async function openFresh(): Promise<Db> {
    const database = await freshPostgresDatabase();
    const db = openDatabase(database.url, createRuntime());
    cleanups.push(async () => {
      await closeDatabase(db);
      await database.drop();
    });
    await execute(db, sql`CREATE TABLE counters (id text PRIMARY KEY, n integer NOT NULL)`);
    await execute(db, sql`INSERT INTO counters VALUES ('a', 0)`);
    return db;
  }

  const counter = async (db: Queryable) =>
    (await rowsOf<{ n: number }>(db, sql`SELECT n FROM counters WHERE id = 'a'`))[0]!.n;

  test("nodes starting at once migrate once: one applies every step, the others find nothing to do", async () => {
    const database = await emptyPostgresDatabase();
    const clients = [0, 1, 2].map(() => new SQL(database.url, { max: 2 }));
    try {
      const applied = await Promise.all(clients.map((client) => migratePostgres(client, lineages.postgres)));
      const tags = lineages.postgres.flatMap((m) => m.covers);
      expect(applied.map((a) => a.length).sort()).toEqual([0, 0, tags.length]);
      const recorded = await clients[0]!`SELECT tag FROM __desk_migrations ORDER BY tag`;
      expect(recorded.map((r: { tag: string }) => r.tag)).toEqual([...tags].sort());
    } finally {
      for (const client of clients) await client.close();
      await database.drop();
    }
  });

  test("concurrent read-then-write changes behave as if run one at a time: conflicts are retried, none is lost", async () => {
    const db = await openFresh();
    const retriesBefore = serializationRetries(db).count;
    const commits: number[] = [];
    await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        transact(db, async (tx) => {
          const [row] = await rowsOf<{ n: number }>(tx, sql`SELECT n FROM counters WHERE id = 'a'`);
          // Every body holds its read across a round trip, so the others interleave with it.
          await rowsOf(tx, sql`SELECT pg_sleep(0.005)`);
          await execute(tx, sql`UPDATE counters SET n = ${row!.n + 1} WHERE id = 'a'`);
          afterCommit(tx, () => commits.push(i));
        }),
      ),
    );
    expect(await counter(db)).toBe(20);
    expect(serializationRetries(db).count).toBeGreaterThan(retriesBefore);
    // A retried body registered its callback again, but callbacks run once, after the attempt that committed.
    expect(commits.sort((a, b) => a - b)).toEqual(Array.from({ length: 20 }, (_, i) => i));
  });

  test("inside a change, a query made on the database (not the tx) runs in that change", async () => {
    const db = await openFresh();
    await expect(
      transact(db, async (tx) => {
        await execute(tx, sql`UPDATE counters SET n = 41 WHERE id = 'a'`);
        expect(await counter(db)).toBe(41);
        await execute(db, sql`UPDATE counters SET n = n + 1 WHERE id = 'a'`);
        expect(await counter(tx)).toBe(42);
        throw new Error("undo");
      }),
    ).rejects.toThrow("undo");
    // Both writes were the change's, and went with its rollback.
    expect(await counter(db)).toBe(0);
  });

  test("a nested transact given the database joins the change it is called from", async () => {
    const db = await openFresh();
    await transact(db, async (tx) => {
      await execute(tx, sql`UPDATE counters SET n = 1 WHERE id = 'a'`);
      await transact(db, async (inner) => {
        expect(await counter(inner)).toBe(1);
        await execute(inner, sql`UPDATE counters SET n = 2 WHERE id = 'a'`);
      });
    });
    expect(await counter(db)).toBe(2);
  });

  test("int8 and numeric answers are numbers, as SQLite's integers are", async () => {
    const db = await openFresh();
    const [row] = await rowsOf<{ c: unknown; s: unknown }>(db, sql`SELECT count(*) AS c, sum(n) AS s FROM counters`);
    expect(row).toEqual({ c: 1, s: 0 });
  });
});
