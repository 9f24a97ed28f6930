import { sql } from "drizzle-orm";
import type { Db } from "../../src/db/database";
import { execute, rowsOf } from "../../src/db/store";
import { newId } from "../../src/lib/ids";
import { defineConsumer } from "../../src/events/consumers";
import type { StoredEvent } from "../../src/events/envelope";
import { anyEvent } from "./events";

/** A table for a test consumer's effects: one row per handling, so a repeat shows as a duplicate. */
export async function createEffectsTable(db: Db): Promise<void> {
  await execute(db, sql`CREATE TABLE IF NOT EXISTS test_effects (event_id TEXT NOT NULL, seq INTEGER NOT NULL)`);
}

/**
 * Stores events without a workspace row (the consumer machinery needs none), counting their seqs in
 * the event store's counter as appendEvent does. `occurredAt` defaults to 2026-01-01T00:00:00Z.
 */
export async function storeEvents(
  db: Db,
  workspaceId: string,
  types: string[],
  occurredAt = "2026-01-01T00:00:00.000Z",
): Promise<void> {
  for (const type of types) {
    const [counted] = await rowsOf<{ last_seq: number }>(
      db,
      sql`INSERT INTO event_seqs (workspace_id, last_seq) VALUES (${workspaceId}, 1) ON CONFLICT (workspace_id) DO UPDATE SET last_seq = event_seqs.last_seq + 1 RETURNING last_seq`,
    );
    await execute(
      db,
      sql`INSERT INTO events (id, workspace_id, seq, type, visibility, topics, data, occurred_at) VALUES (${newId()}, ${workspaceId}, ${counted!.last_seq}, ${type}, 'agents', '[]', '{}', ${occurredAt})`,
    );
  }
}

/** Records each `test.item` it handles as an effect row, in the same transaction as its cursor. */
export const recordingConsumer = (onEvent: (event: StoredEvent) => StoredEvent = (e) => e) =>
  defineConsumer({
    name: "test.recorder",
    events: [anyEvent("test.item")],
    from: "beginning",
    async handle(tx, event) {
      const handled = onEvent(event);
      await execute(tx, sql`INSERT INTO test_effects (event_id, seq) VALUES (${handled.id}, ${handled.seq})`);
    },
  });
