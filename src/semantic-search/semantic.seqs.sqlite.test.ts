import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { migrations } from "../../migrations/index";
import type { Db } from "../db/database";
import { openDatabase } from "../db/engine";
import { migrate } from "../db/sqlite/migrate";
import { createRuntime } from "../db/runtime";
import { transact } from "../db/tx";
import { storeVector } from "./semantic.store";
import type { SemanticKind } from "./semantic.table";

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function freshDb(): Db {
  const dir = mkdtempSync(join(tmpdir(), "desk-semantic-seqs-"));
  dirs.push(dir);
  const db = openDatabase(join(dir, "desk.db"), createRuntime());
  migrate(db.$client, migrations);
  return db;
}

const NOW = "2026-11-28T10:00:00.000Z";
const store = async (db: Db, workspaceId: string, kind: SemanticKind, docId: string) =>
  await transact(
    db,
    async (tx) =>
      await storeVector(tx, { workspaceId, kind, docId, model: "m", vector: Buffer.alloc(16), text: null, now: NOW }),
  );
const seqOf = async (db: Db, kind: SemanticKind, docId: string) =>
  db.$client
    .query<{ seq: number }, [string, string]>("SELECT seq FROM semantic_vectors WHERE kind = ? AND doc_id = ?")
    .get(kind, docId)!.seq;
const counters = async (db: Db) =>
  db.$client
    .query<{ workspace_id: string; kind: string; last_seq: number }, []>(
      "SELECT workspace_id, kind, last_seq FROM semantic_seqs ORDER BY workspace_id, kind",
    )
    .all();

// The counters' seeding is a migration of SQLite's lineage (migrations/custom/0150_semantic_seqs.sql).
describe("semantic vector seqs", () => {
  test("existing vectors: the migration seeds each counter from them, and a missing counter starts after them", async () => {
    const db = freshDb();
    for (const doc of ["t1", "t2", "t3"]) await store(db, "ws-a", "ticket", doc);
    await store(db, "ws-a", "article", "a1");
    // As before the counter existed: vectors with seqs, no counter rows.
    db.$client.run("DELETE FROM semantic_seqs");
    const seed = readFileSync(join(import.meta.dir, "../../migrations/custom/0150_semantic_seqs.sql"), "utf8");
    db.$client.run(seed);
    expect(await counters(db)).toEqual([
      { workspace_id: "ws-a", kind: "article", last_seq: 1 },
      { workspace_id: "ws-a", kind: "ticket", last_seq: 3 },
    ]);
    await store(db, "ws-a", "ticket", "t4");
    expect(await seqOf(db, "ticket", "t4")).toBe(4);

    db.$client.run("DELETE FROM semantic_seqs");
    await store(db, "ws-a", "ticket", "t5");
    expect(await seqOf(db, "ticket", "t5")).toBe(5);
    await store(db, "ws-a", "ticket", "t6");
    expect(await seqOf(db, "ticket", "t6")).toBe(6);
  });
});
