import { Database } from "bun:sqlite";
import { expect, test } from "bun:test";
import { migrations } from "../../migrations/index";
import { migrate } from "../db/sqlite/migrate";

// The step that seeds the per-workspace counter and cursors from the old ones (found by what it
// does); the empty tables it fills come before it, as on an upgrade.
const seedsCursors = (sql: string) => sql.includes("FROM event_consumers c CROSS JOIN event_seqs");

test("an upgraded desk continues each workspace's seqs and maps old rowid cursors to per-workspace seqs", async () => {
  const db = new Database(":memory:", { strict: true });
  migrate(
    db,
    migrations.filter((m) => !seedsCursors(m.sql)),
  );
  expect(migrations.filter((m) => seedsCursors(m.sql))).toHaveLength(1);
  const workspace = db.query(
    "INSERT INTO workspaces (id, name, slug, widget_key, event_seq, created_at, updated_at) VALUES (?, ?, ?, ?, ?, '2026-01-01', '2026-01-01')",
  );
  // w1 and w2 interleaved; w3's events were all pruned; w4 has none; w5 kept only seqs 4-6.
  for (const [id, seq] of [
    ["w1", 4],
    ["w2", 3],
    ["w3", 7],
    ["w4", 0],
    ["w5", 6],
  ] as const)
    workspace.run(id, id, id, `key-${id}`, seq);
  const event = db.query(
    "INSERT INTO events (id, workspace_id, seq, type, visibility, topics, data, occurred_at) VALUES (?, ?, ?, 't', 'agents', '[]', '{}', '2026-01-01')",
  );
  const log: Array<[string, number]> = [
    ["w1", 1],
    ["w2", 1],
    ["w1", 2],
    ["w2", 2],
    ["w1", 3],
    ["w5", 4],
    ["w2", 3],
    ["w1", 4],
    ["w5", 5],
    ["w5", 6],
  ];
  for (const [i, [ws, seq]] of log.entries()) event.run(`e${i + 1}`, ws, seq);
  const rowidOf = async (id: string) =>
    db.query<{ r: number }, [string]>("SELECT rowid AS r FROM events WHERE id = ?").get(id)!.r;
  const consumer = db.query("INSERT INTO event_consumers (name, last_rowid, updated_at) VALUES (?, ?, '2026-01-02')");
  consumer.run("caught.up", await rowidOf("e10"));
  // Handled up to w2's seq 2: w1 is at 2, w2 at 2, w5 before its first retained event.
  consumer.run("halfway", await rowidOf("e4"));
  consumer.run("fresh", 0);

  migrate(db, migrations);

  const seqs = db.query<{ workspace_id: string; last_seq: number }, []>(
    "SELECT workspace_id, last_seq FROM event_seqs ORDER BY workspace_id",
  );
  expect(seqs.all()).toEqual([
    { workspace_id: "w1", last_seq: 4 },
    { workspace_id: "w2", last_seq: 3 },
    { workspace_id: "w3", last_seq: 7 },
    { workspace_id: "w4", last_seq: 0 },
    { workspace_id: "w5", last_seq: 6 },
  ]);
  const cursors = async (name: string) =>
    Object.fromEntries(
      db
        .query<{ workspace_id: string; last_seq: number }, [string]>(
          "SELECT workspace_id, last_seq FROM event_consumer_cursors WHERE consumer = ? ORDER BY workspace_id",
        )
        .all(name)
        .map((c) => [c.workspace_id, c.last_seq]),
    );
  expect(await cursors("caught.up")).toEqual({ w1: 4, w2: 3, w3: 7, w5: 6 });
  expect(await cursors("halfway")).toEqual({ w1: 2, w2: 2, w3: 7, w5: 3 });
  // Nothing handled yet: every retained event is still ahead of it; pruned ones are gone.
  expect(await cursors("fresh")).toEqual({ w1: 0, w2: 0, w3: 7, w5: 3 });
  db.close();
});
