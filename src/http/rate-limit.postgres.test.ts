import { afterAll, describe, expect, test } from "bun:test";
import { freshPostgresDatabase, onPostgres } from "../../test/kit/postgres";
import type { Db } from "../db/database";
import { closeDatabase, openDatabase } from "../db/engine";
import { createRuntime } from "../db/runtime";
import { postgresSpentChallenges } from "../identity/challenge.postgres";
import { postgresRateLimitStore } from "./rate-limit.postgres";

// Several nodes on one PostgreSQL database count one budget (DECISIONS.md "Past one machine").
describe.skipIf(!onPostgres)("limits shared by the nodes of one PostgreSQL database", () => {
  const opened: Db[] = [];
  let drop = async () => {};
  afterAll(async () => {
    for (const db of opened) await closeDatabase(db);
    await drop();
  });
  /** Three nodes: three pools on one database. */
  async function nodes(): Promise<Db[]> {
    const database = await freshPostgresDatabase();
    drop = database.drop;
    const dbs = [0, 1, 2].map(() => openDatabase(database.url, createRuntime()));
    opened.push(...dbs);
    return dbs;
  }

  test("a budget taken from three nodes at once lets exactly `limit` through, and every node sees the count", async () => {
    let now = 1_000_000;
    const dbs = await nodes();
    const limiters = dbs.map((db) =>
      postgresRateLimitStore(db, () => now).limiter({ name: "sign-in.account", limit: 5, windowMs: 60_000 }),
    );
    const waits = await Promise.all(Array.from({ length: 15 }, (_, i) => limiters[i % 3]!.take("ada@example.com")));
    expect(waits.filter((w) => w === 0)).toHaveLength(5);
    expect(waits.filter((w) => w > 0).every((w) => w === 60)).toBe(true);
    for (const limiter of limiters) {
      expect(await limiter.count("ada@example.com")).toBe(5);
      expect(await limiter.state("ada@example.com")).toEqual({ limit: 5, remaining: 0, reset: 60 });
    }
    // Another key and another budget name count apart.
    expect(await limiters[0]!.take("grace@example.com")).toBe(0);
    // The window slides: once the hits are older than it, the key may go again on any node.
    now += 60_001;
    expect(await limiters[2]!.retryAfter("ada@example.com")).toBe(0);
    await limiters[1]!.hit("ada@example.com");
    expect(await limiters[0]!.count("ada@example.com")).toBe(1);
    await limiters[0]!.reset("ada@example.com");
    expect(await limiters[2]!.count("ada@example.com")).toBe(0);
  });

  test("a challenge spent on one node is spent on all: of three nodes spending it at once, one wins", async () => {
    const dbs = await nodes();
    const now = Date.now();
    const spent = dbs.map((db) => postgresSpentChallenges(db, () => now));
    const won = await Promise.all(spent.map((s) => s.spend("signature-1", now + 300_000)));
    expect(won.filter(Boolean)).toHaveLength(1);
    for (const s of spent) expect(await s.isSpent("signature-1")).toBe(true);
    expect(await spent[0]!.isSpent("signature-2")).toBe(false);
  });
});
