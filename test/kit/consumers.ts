import type { Db } from "../../src/db/database";
import { sqliteOf } from "../../src/db/prepared";
import { newId } from "../../src/lib/ids";
import { defineConsumer } from "../../src/events/consumers";
import type { StoredEvent } from "../../src/events/envelope";
import { anyEvent } from "./events";

/** A table for a test consumer's effects: one row per handling, so a repeat shows as a duplicate. */
export function createEffectsTable(db: Db): void {
  db.$client.run("CREATE TABLE IF NOT EXISTS test_effects (event_id TEXT NOT NULL, seq INTEGER NOT NULL)");
}

/** Stores events without a workspace row (the consumer machinery needs none). */
export function storeEvents(db: Db, workspaceId: string, types: string[]): void {
  const insert = db.$client.query(
    "INSERT INTO events (id, workspace_id, seq, type, visibility, topics, data, occurred_at) VALUES (?, ?, ?, ?, 'agents', '[]', '{}', ?)",
  );
  const last = db.$client
    .query<{ n: number | null }, [string]>("SELECT max(seq) AS n FROM events WHERE workspace_id = ?")
    .get(workspaceId)?.n;
  for (const [i, type] of types.entries())
    insert.run(newId(), workspaceId, (last ?? 0) + i + 1, type, "2026-01-01T00:00:00.000Z");
}

/** Records each `test.item` it handles as an effect row, in the same transaction as its cursor. */
export const recordingConsumer = (onEvent: (event: StoredEvent) => StoredEvent = (e) => e) =>
  defineConsumer({
    name: "test.recorder",
    events: [anyEvent("test.item")],
    from: "beginning",
    handle(tx, event) {
      const handled = onEvent(event);
      sqliteOf(tx).run("INSERT INTO test_effects (event_id, seq) VALUES (?, ?)", [handled.id, handled.seq]);
    },
  });
