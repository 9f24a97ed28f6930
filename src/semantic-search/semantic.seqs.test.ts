import { describe, expect, test } from "bun:test";
import { openTestDatabase } from "../../test/kit/database";
import { sql } from "drizzle-orm";
import type { Db } from "../db/database";
import { execute, rowsOf } from "../db/store";
import { transact } from "../db/tx";
import { storeVector } from "./semantic.store";
import type { SemanticKind } from "./semantic.table";

/** A migrated database of the process's engine. */
const freshDb = async (): Promise<Db> => (await openTestDatabase()).db;

const NOW = "2026-11-28T10:00:00.000Z";
const store = async (db: Db, workspaceId: string, kind: SemanticKind, docId: string) =>
  await transact(
    db,
    async (tx) =>
      await storeVector(tx, { workspaceId, kind, docId, model: "m", vector: Buffer.alloc(16), text: null, now: NOW }),
  );
const seqOf = async (db: Db, kind: SemanticKind, docId: string) =>
  (
    await rowsOf<{ seq: number }>(db, sql`SELECT seq FROM semantic_vectors WHERE kind = ${kind} AND doc_id = ${docId}`)
  )[0]!.seq;
const counters = async (db: Db) =>
  await rowsOf<{ workspace_id: string; kind: string; last_seq: number }>(
    db,
    sql`SELECT workspace_id, kind, last_seq FROM semantic_seqs ORDER BY workspace_id, kind`,
  );

describe("semantic vector seqs", () => {
  test("come from a counter row per workspace and kind: contiguous, and every write takes the next", async () => {
    const db = await freshDb();
    await store(db, "ws-a", "ticket", "t1");
    await store(db, "ws-a", "ticket", "t2");
    await store(db, "ws-a", "article", "a1");
    await store(db, "ws-b", "ticket", "t3");
    await store(db, "ws-a", "ticket", "t1");
    expect([await seqOf(db, "ticket", "t2"), await seqOf(db, "ticket", "t1")]).toEqual([2, 3]);
    expect([await seqOf(db, "article", "a1"), await seqOf(db, "ticket", "t3")]).toEqual([1, 1]);
    expect(await counters(db)).toEqual([
      { workspace_id: "ws-a", kind: "article", last_seq: 1 },
      { workspace_id: "ws-a", kind: "ticket", last_seq: 3 },
      { workspace_id: "ws-b", kind: "ticket", last_seq: 1 },
    ]);
    // The counter, not the stored rows, decides: a seq given out once (even by a write whose row
    // was overwritten since) is never given out again.
    await execute(db, sql`UPDATE semantic_seqs SET last_seq = 10 WHERE workspace_id = 'ws-a' AND kind = 'ticket'`);
    await store(db, "ws-a", "ticket", "t4");
    expect(await seqOf(db, "ticket", "t4")).toBe(11);
  });

  test("a rolled-back write gives its seq back", async () => {
    const db = await freshDb();
    await store(db, "ws-a", "ticket", "t1");
    await expect(
      transact(db, async (tx) => {
        await storeVector(tx, { workspaceId: "ws-a", kind: "ticket", docId: "t2", model: "m", vector: null, now: NOW });
        throw new Error("the change fails after the vector write");
      }),
    ).rejects.toThrow("the change fails");
    await store(db, "ws-a", "ticket", "t3");
    expect(await seqOf(db, "ticket", "t3")).toBe(2);
  });
});
