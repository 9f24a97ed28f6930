import { Elysia } from "elysia";
import type { Deps } from "../deps";
import { NoContent } from "../http/schemas";
import { MemberSchema } from "../members/members.public";
import { changeAvailability, heartbeat } from "./assignment.availability";
import { AssignmentSchema, AvailabilityBody, AvailabilityParams, PatchAssignmentBody } from "./assignment.schemas";
import { getAssignment, updateAssignment } from "./assignment.service";

export function assignmentRoutes(deps: Deps) {
  return new Elysia({ tags: ["assignment"] })
    .use(deps.guard)
    .get("/assignment", async ({ ctx }) => await getAssignment(deps.db, ctx.workspaceId), {
      access: { role: "viewer", scopes: ["settings:read"] },
      response: { 200: AssignmentSchema },
      detail: {
        summary: "How new tickets are assigned",
        description:
          "`mode` is the workspace's (the same value as `settings.auto_assign`; unset reads `none`). A rule for a ticket's team " +
          "applies first, then one for its mailbox, else `mode`. New unassigned tickets are assigned on creation to a member " +
          "who is not a viewer, whose presence is online (auto-away counts) and who is under their `max_open_tickets`; a " +
          "ticket of a team goes to that team's members. round_robin takes turns in a stored order (fair across restarts); " +
          "load_balanced takes the fewest open tickets (open, pending, on hold), ties in turn order. Nobody eligible: the " +
          "ticket stays unassigned. `auto_away_minutes` (0 = off, else 10 to 1440): an online member without a heartbeat " +
          "for that long shows presence `away`.",
      },
    })
    .patch("/assignment", async ({ ctx, body }) => await updateAssignment(ctx, body, deps), {
      access: { role: "admin", scopes: ["settings:write"] },
      body: PatchAssignmentBody,
      response: { 200: AssignmentSchema },
      detail: {
        summary: "Change assignment: mode, rules (the whole list is replaced) and auto-away",
        description:
          "Each rule's target must be a mailbox or team of this workspace, at most one rule per target (422 at " +
          "`body.rules.<i>`). Changing `mode` changes `settings.auto_assign` (`workspace.updated`). Audit-logged as " +
          "`assignment.updated`.",
      },
    })
    .patch(
      "/members/:user_id/availability",
      async ({ ctx, params, body }) => await changeAvailability(ctx, params.user_id, body, deps),
      {
        access: { role: "viewer", scopes: ["settings:write"] },
        params: AvailabilityParams,
        body: AvailabilityBody,
        response: { 200: MemberSchema },
        detail: {
          summary: "Set a member's availability (`me` for oneself) and, for admins, their assignment cap",
          description:
            "Members set their own `availability` (online, away, offline); admins set anyone's and `max_open_tickets` " +
            "(1 to 1000, null clears). A cap for a viewer is 422 (viewers are never assigned). `member.updated` follows a " +
            "change; changes are audit-logged (`member.availability_changed`, `member.assignment_cap_changed`).",
        },
      },
    )
    .post(
      "/me/heartbeat",
      async ({ ctx, set }) => {
        await heartbeat(ctx, deps);
        set.status = 204;
        return null;
      },
      {
        access: { role: "viewer", keys: false },
        response: { 204: NoContent },
        detail: {
          summary: "Mark the caller seen now (last_seen_at; feeds auto-away)",
          description:
            "The web app sends one a minute while open. `member.updated` follows only when it brings the member back " +
            "from auto-away.",
        },
      },
    );
}
