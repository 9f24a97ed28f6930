import { first } from "../db/store";
import { Elysia } from "elysia";
import { z } from "zod";
import type { Deps } from "../deps";
import { users } from "./identity.table";

export const InstanceStatusSchema = z.object({
  signup_open: z
    .boolean()
    .describe("POST /v1/auth/register is accepted: the instance has no user yet, or DESK_OPEN_SIGNUP=true"),
  has_users: z.boolean().describe("at least one person has an account on this instance"),
});

/**
 * Public facts a sign-in screen needs before anyone is signed in: whether this is a fresh
 * instance (open the setup page) or one with people (open sign-in). Says nothing about who.
 */
export function instanceRoutes(deps: Deps) {
  return new Elysia({ prefix: "/auth", tags: ["auth"] }).get(
    "/status",
    async () => {
      // Any one row answers the question; no count over the whole table.
      const hasUsers = first(await deps.db.select({ id: users.id }).from(users).limit(1)) !== undefined;
      return { signup_open: !hasUsers || deps.config.openSignup, has_users: hasUsers };
    },
    {
      response: { 200: InstanceStatusSchema },
      detail: {
        summary: "Whether sign-up is open and whether the instance has any user (no credentials needed)",
        security: [],
      },
    },
  );
}
