import { Elysia } from "elysia";
import { z } from "zod";
import type { Deps } from "../deps";
import { completeList, completeListSchema } from "../http/schemas";
import { mailboxesOf } from "../mailboxes/mailboxes.public";

const SenderSchema = z.object({
  id: z.string(),
  name: z.string(),
  email: z.string(),
  display_name: z.string(),
  status: z.enum(["active", "error", "disabled"]),
  default: z.boolean().describe("the mailbox a new email ticket is sent from when `mailbox_id` is not given"),
});

/** The mailboxes agents may send from: the "From" of a new email ticket (the mailbox settings are admins' only). */
export function outboundRoutes(deps: Deps) {
  return new Elysia({ tags: ["mailboxes"] }).use(deps.guard).get(
    "/senders",
    async ({ ctx }) =>
      completeList(
        (await mailboxesOf(deps.db, ctx.workspaceId)).map((m, i) => ({
          id: m.id,
          name: m.name,
          email: m.email,
          display_name: m.displayName,
          status: m.status,
          default: i === 0,
        })),
      ),
    {
      access: { role: "viewer", scopes: ["tickets:read"] },
      response: { 200: completeListSchema(SenderSchema) },
      detail: {
        summary: "The mailboxes a ticket can be mailed from (the From of a new email ticket), the default first",
      },
    },
  );
}
