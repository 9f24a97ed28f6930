import { Elysia } from "elysia";
import { z } from "zod";
import type { RequestContext } from "../auth/context";
import type { Db } from "../db/database";
import type { Deps } from "../deps";
import type { Envelope } from "./envelope";
import type { ReadScopeOf } from "./catalogue";
import { eventAsSeenBy, type ReadGrant } from "./visibility";

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

export function eventsRoutes(deps: Deps) {
  return new Elysia({ prefix: "/events", tags: ["events"] })
    .use(deps.guard)
    .get(
      "/",
      ({ ctx, query }) =>
        replayEvents(
          deps.db,
          { ...ctx, person: ctx.actor.type === "user" ? ctx.actor.userId : null },
          query.since,
          query.limit,
          deps.events.readScopeOf,
        ),
      {
        access: { role: "viewer" },
        query: ReplayQuery,
        response: { 200: z.object({ data: z.array(EnvelopeSchema), next_cursor: z.string().nullable() }) },
        detail: {
          summary: "Replay events after a sequence number",
          description:
            "Ascending by `seq`; `limit` 1 to 1000 (default 100). `next_cursor` is the last returned seq while more follow: pass it as `since`. " +
            "Events the caller may not read come back as `event.hidden` stand-ins with the same seq and no data: events about a private team it " +
            "cannot see, and for an API key events outside its scopes (tickets:read for ticket, message, activity, view, saved reply, " +
            "automation, SLA policy and notification events; contacts:read for contacts and companies; " +
            "settings:read for members, teams, mailboxes, webhooks, the workspace and billing; labels and custom fields need none). " +
            "Personal events (`notification.created`, whose first topic is `user:<uid>`) are shown in full only to that person; " +
            "everyone else, API keys included, gets the stand-in. " +
            "Events are kept 7 days (EVENT_RETENTION).",
        },
      },
    );
}
