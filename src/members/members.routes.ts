import { Elysia } from "elysia";
import type { Deps } from "../deps";
import { MemberListQuery, MemberPage, MemberParams, MemberSchema, UpdateMemberBody } from "./members.schemas";
import { listMembers, removeMember, updateMemberRole } from "./members.service";

export function membersRoutes(deps: Deps) {
  return new Elysia({ prefix: "/members", tags: ["members"] })
    .use(deps.guard)
    .get("/", async ({ ctx, query }) => await listMembers(ctx, query, deps), {
      access: { role: "viewer", scopes: ["settings:read"] },
      query: MemberListQuery,
      response: { 200: MemberPage },
      detail: { summary: "List the workspace's members (filter `role`)" },
    })
    .patch("/:user_id", async ({ ctx, params, body }) => await updateMemberRole(ctx, params.user_id, body.role, deps), {
      access: { role: "admin", scopes: ["settings:write"] },
      params: MemberParams,
      body: UpdateMemberBody,
      response: { 200: MemberSchema },
      detail: {
        summary: "Change a member's role; only an owner grants or changes the owner role; the last owner stays",
        description:
          "Promoting grants the new role's reach, which the caller must hold (see POST /v1/invitations). An API key never changes or removes an admin's or owner's membership.",
      },
    })
    .delete(
      "/:user_id",
      async ({ ctx, params, set }) => {
        await removeMember(ctx, params.user_id, deps);
        set.status = 204;
        return null;
      },
      {
        access: { role: "admin", scopes: ["settings:write"] },
        params: MemberParams,
        detail: {
          summary:
            "Remove a member; removing an owner needs an owner; the last owner stays. Their unsolved tickets become unassigned (ticket.updated each)",
        },
      },
    );
}
