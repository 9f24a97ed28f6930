import type { Database } from "bun:sqlite";
import type { RequestContext } from "../auth/context";
import type { Db } from "../db/database";
import type { ReadScopeOf } from "./catalogue";
import { type Envelope, type StoredEventRow, storedEventOf } from "./envelope";
import { eventAsSeenBy, type ReadGrant } from "./visibility";

/** A stored public event as the realtime gateway replays it to a visitor: topics and data as stored JSON. */
export type PublicEventRow = Omit<Envelope, "topics" | "data"> & { topics: string; data: string };

/**
 * A visitor's missed public events: those of the workspace after `since` that went to their contact
 * topic. Prepared on the realtime gateway's connection once, when it starts.
 */
export const publicEventsSinceStatement = (sqlite: Database) =>
  sqlite.query<PublicEventRow, [string, number, string, number]>(
    "SELECT id, seq, workspace_id, type, visibility, topics, data, occurred_at FROM events WHERE workspace_id = ? AND seq > ? AND visibility = 'public' AND instr(topics, ?) > 0 ORDER BY seq LIMIT ?",
  );

/**
 * Replays stored events after `since`, ascending. Events the caller may not read (a private team it
 * does not see, or for an API key a resource outside its scopes) come back as stand-ins.
 */
export async function replayEvents(
  db: Db,
  ctx: Pick<RequestContext, "workspaceId"> & ReadGrant,
  since: number,
  limit: number,
  readScopeOf: ReadScopeOf,
): Promise<{ data: Envelope[]; next_cursor: string | null }> {
  const rows = db.$client
    .query<StoredEventRow, [string, number, number]>(
      "SELECT id, seq, workspace_id, type, visibility, private_team_id, topics, data, occurred_at FROM events WHERE workspace_id = ? AND seq > ? ORDER BY seq LIMIT ?",
    )
    .all(ctx.workspaceId, since, limit + 1);
  const more = rows.length > limit;
  const kept = more ? rows.slice(0, limit) : rows;
  const data = kept.map((row) => eventAsSeenBy(ctx, storedEventOf(row), readScopeOf));
  return { data, next_cursor: more ? String(kept.at(-1)!.seq) : null };
}
