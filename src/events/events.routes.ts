import { Elysia } from "elysia";
import { z } from "zod";
import type { GuardPlugin } from "../auth/guard";
import type { Db } from "../db/database";
import type { EventCatalogue } from "./catalogue";
import { replayEvents } from "./events.replay";

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

/** What the replay route needs of the desk's dependencies. */
type EventsRouteDeps = { db: Db; guard: GuardPlugin; events: Pick<EventCatalogue, "readScopeOf"> };

export function eventsRoutes(deps: EventsRouteDeps) {
  return new Elysia({ prefix: "/events", tags: ["events"] })
    .use(deps.guard)
    .get(
      "/",
      async ({ ctx, query }) =>
        await replayEvents(
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
