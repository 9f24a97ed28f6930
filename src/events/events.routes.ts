import { Elysia } from "elysia";
import { z } from "zod";
import { canSeeTeam, type RequestContext } from "../auth/context";
import type { Db } from "../db/database";
import type { Deps } from "../deps";
import { hiddenStandIn, type Envelope } from "./envelope";

export const ReplayQuery = z
  .object({
    since: z.coerce.number().int().min(0).default(0),
    limit: z.coerce.number().int().min(1).max(1000).default(100),
  })
  .strict();

const EnvelopeSchema = z.object({
  id: z.string(),
  seq: z.number(),
  workspace_id: z.string(),
  type: z.string(),
  visibility: z.enum(["agents", "public"]),
  topics: z.array(z.string()),
  data: z.record(z.string(), z.unknown()),
  occurred_at: z.string(),
});

type EventRow = { id: string; seq: number; workspace_id: string; type: string; visibility: "agents" | "public"; private_team_id: string | null; topics: string; data: string; occurred_at: string };

/** Replays stored events after `since`, ascending; events about private teams the caller cannot see come back as stand-ins. */
export function replayEvents(db: Db, ctx: RequestContext, since: number, limit: number): { data: Envelope[]; next_cursor: string | null } {
  const rows = db.$client
    .query<EventRow, [string, number, number]>(
      "SELECT id, seq, workspace_id, type, visibility, private_team_id, topics, data, occurred_at FROM events WHERE workspace_id = ? AND seq > ? ORDER BY seq LIMIT ?",
    )
    .all(ctx.workspaceId, since, limit + 1);
  const more = rows.length > limit;
  const kept = more ? rows.slice(0, limit) : rows;
  const data = kept.map((row) => {
    const envelope: Envelope = {
      id: row.id,
      seq: row.seq,
      workspace_id: row.workspace_id,
      type: row.type,
      visibility: row.visibility,
      topics: JSON.parse(row.topics) as string[],
      data: JSON.parse(row.data) as Record<string, unknown>,
      occurred_at: row.occurred_at,
    };
    return row.private_team_id && !canSeeTeam(ctx, row.private_team_id) ? hiddenStandIn(envelope) : envelope;
  });
  return { data, next_cursor: more ? String(kept.at(-1)!.seq) : null };
}

export function eventsRoutes(deps: Deps) {
  return new Elysia({ prefix: "/events", tags: ["events"] })
    .use(deps.guard)
    .get("/", ({ ctx, query }) => replayEvents(deps.db, ctx, query.since, query.limit), {
      access: { role: "viewer" },
      query: ReplayQuery,
      response: { 200: z.object({ data: z.array(EnvelopeSchema), next_cursor: z.string().nullable() }) },
      detail: {
        summary: "Replay events after a sequence number",
        description:
          "Ascending by `seq`; `limit` 1 to 1000 (default 100). `next_cursor` is the last returned seq while more follow: pass it as `since`. " +
          "Events about a private team the caller cannot see come back as `event.hidden` stand-ins with the same seq and no data. Events are kept 7 days (EVENT_RETENTION).",
      },
    });
}
