import type { Database } from "bun:sqlite";
import type { RequestContext } from "../auth/context";
import type { Db } from "../db/database";
import type { ReadScopeOf } from "./catalogue";
import type { Envelope } from "./envelope";
import { eventAsSeenBy, type ReadGrant } from "./visibility";

type EventRow = {
  id: string;
  seq: number;
  workspace_id: string;
  type: string;
  visibility: "agents" | "public";
  private_team_id: string | null;
  topics: string;
  data: string;
  occurred_at: string;
};

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
export function replayEvents(
  db: Db,
  ctx: Pick<RequestContext, "workspaceId"> & ReadGrant,
  since: number,
  limit: number,
  readScopeOf: ReadScopeOf,
): { data: Envelope[]; next_cursor: string | null } {
  const rows = db.$client
    .query<EventRow, [string, number, number]>(
      "SELECT id, seq, workspace_id, type, visibility, private_team_id, topics, data, occurred_at FROM events WHERE workspace_id = ? AND seq > ? ORDER BY seq LIMIT ?",
    )
    .all(ctx.workspaceId, since, limit + 1);
  const more = rows.length > limit;
  const kept = more ? rows.slice(0, limit) : rows;
  const data = kept.map((row) =>
    eventAsSeenBy(
      ctx,
      {
        id: row.id,
        seq: row.seq,
        workspace_id: row.workspace_id,
        type: row.type,
        visibility: row.visibility,
        topics: JSON.parse(row.topics) as string[],
        data: JSON.parse(row.data) as Record<string, unknown>,
        occurred_at: row.occurred_at,
        private_team_id: row.private_team_id,
      },
      readScopeOf,
    ),
  );
  return { data, next_cursor: more ? String(kept.at(-1)!.seq) : null };
}
