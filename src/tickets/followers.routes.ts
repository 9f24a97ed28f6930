import { Elysia } from "elysia";
import { z } from "zod";
import type { Deps } from "../deps";
import { NoContent } from "../http/schemas";
import { followTicket, MAX_FOLLOWERS, unfollowTicket } from "./tickets.followers";

const write = { role: "agent", scopes: ["tickets:write"] } as const;
const Params = z.object({ id: z.string().min(1).max(100), user_id: z.string().min(1).max(100) });

const FOLLOWERS = `Followers get the ticket notifications its assignee gets, except assigned: customer_replied, note_added (a note someone else wrote), sla_breached and ai_handoff, in the app at once (their own socket) and by email per their preference. With the workspace setting follow_on_mention, members a note mentions start following.
user_id is a member's id, or me (the caller; an API key's creator). Agents follow for themselves or a teammate; the member must be able to see the ticket (a private team's ticket: 422 at path.user_id). A member of no such workspace answers 404.
A ticket has at most ${MAX_FOLLOWERS} followers (422). A change emits ticket.updated with changes ["followers"]; following twice, or unfollowing someone who was not following, changes nothing and still answers 204.`;

export function followersRoutes(deps: Deps) {
  return new Elysia({ tags: ["tickets"] })
    .use(deps.guard)
    .put(
      "/tickets/:id/followers/:user_id",
      async ({ ctx, params, set }) => {
        await followTicket(ctx, params.id, params.user_id, deps);
        set.status = 204;
        return null;
      },
      {
        access: write,
        params: Params,
        response: { 204: NoContent },
        detail: { summary: "Follow a ticket (yourself or a teammate)", description: FOLLOWERS },
      },
    )
    .delete(
      "/tickets/:id/followers/:user_id",
      async ({ ctx, params, set }) => {
        await unfollowTicket(ctx, params.id, params.user_id, deps);
        set.status = 204;
        return null;
      },
      {
        access: write,
        params: Params,
        response: { 204: NoContent },
        detail: { summary: "Stop a person following a ticket", description: FOLLOWERS },
      },
    );
}
