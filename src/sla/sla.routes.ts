import { Elysia } from "elysia";
import type { Deps } from "../deps";
import { IdParams, NoContent, completeList, completeListSchema } from "../http/schemas";
import { notFound } from "../lib/errors";
import { CreateSlaPolicyBody, SlaPolicySchema, UpdateSlaPolicyBody } from "./sla.schemas";
import {
  createSlaPolicy,
  deleteSlaPolicy,
  findSlaPolicy,
  listSlaPolicies,
  presentSlaPolicy,
  updateSlaPolicy,
} from "./sla.service";

const read = { role: "admin", scopes: ["settings:read"] } as const;
const write = { role: "admin", scopes: ["settings:read", "settings:write"] } as const;

const RULES =
  "A ticket follows the first enabled policy by position whose priority is the ticket's (a policy with priority null matches any). " +
  "The first-response deadline counts from the ticket's creation and is met by the first agent reply; the resolution deadline counts " +
  "from creation (or the latest reopening) and is met by solving. Both run in every unsolved status. With business_hours true, only the " +
  "open minutes of the workspace's business hours count (calendar minutes while business hours are disabled). A change to a policy " +
  "recomputes the clocks of unsolved tickets within moments; a missed deadline is recorded once per ticket and kind.";

export function slaRoutes(deps: Deps) {
  return new Elysia({ prefix: "/sla-policies", tags: ["sla-policies"] })
    .use(deps.guard)
    .get("/", async ({ ctx }) => completeList(await listSlaPolicies(deps.db, ctx)), {
      access: read,
      response: { 200: completeListSchema(SlaPolicySchema) },
      detail: { summary: "All SLA policies of the workspace, by position", description: RULES },
    })
    .post(
      "/",
      async ({ ctx, body, set }) => {
        set.status = 201;
        return presentSlaPolicy(await createSlaPolicy(ctx, body, deps));
      },
      {
        access: write,
        body: CreateSlaPolicyBody,
        response: { 201: SlaPolicySchema },
        detail: {
          summary: "Create an SLA policy (audit-logged); without position it goes last",
          description: `Targets are whole minutes, 1 to 525600. ${RULES}`,
        },
      },
    )
    .get(
      "/:id",
      async ({ ctx, params }) => {
        const row = await findSlaPolicy(deps.db, ctx.workspaceId, params.id);
        if (!row) throw notFound("SLA policy");
        return presentSlaPolicy(row);
      },
      { access: read, params: IdParams, response: { 200: SlaPolicySchema }, detail: { summary: "An SLA policy" } },
    )
    .patch(
      "/:id",
      async ({ ctx, params, body }) => presentSlaPolicy(await updateSlaPolicy(ctx, params.id, body, deps)),
      {
        access: write,
        params: IdParams,
        body: UpdateSlaPolicyBody,
        response: { 200: SlaPolicySchema },
        detail: { summary: "Change an SLA policy (audit-logged); reorder by setting position" },
      },
    )
    .delete(
      "/:id",
      async ({ ctx, params, set }) => {
        await deleteSlaPolicy(ctx, params.id, deps);
        set.status = 204;
        return null;
      },
      {
        access: write,
        params: IdParams,
        response: { 204: NoContent },
        detail: { summary: "Delete an SLA policy (audit-logged); its tickets follow the next matching policy" },
      },
    );
}
