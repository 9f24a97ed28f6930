import { Elysia } from "elysia";
import type { Deps } from "../deps";
import { TriagePatchBody, TriageSettingsSchema } from "./triage.schemas";
import { presentTriage, updateTriage } from "./triage.service";

const read = { role: "viewer", scopes: ["settings:read"] } as const;
const write = { role: "admin", scopes: ["settings:write"] } as const;

export function triageRoutes(deps: Deps) {
  return new Elysia({ prefix: "/triage", tags: ["triage"] })
    .use(deps.guard)
    .get("/", async ({ ctx }) => await presentTriage(deps.db, ctx.workspaceId, deps), {
      access: read,
      response: { 200: TriageSettingsSchema },
      detail: {
        summary: "The workspace's triage settings",
        description:
          "Defaults until saved: auto_triage false, fields priority, severity and labels, assign_after_triage false, threshold 0.7. `engine` is the configured AI model (`llm`) or `none`.",
      },
    })
    .patch(
      "/",
      async ({ ctx, body }) => {
        await updateTriage(ctx, body, deps);
        return await presentTriage(deps.db, ctx.workspaceId, deps);
      },
      {
        access: write,
        body: TriagePatchBody,
        response: { 200: TriageSettingsSchema },
        detail: {
          summary: "Change the triage settings (admins)",
          description:
            "Writable: auto_triage, fields (a subset of priority, severity, labels, team, each once), threshold (0.5 to 0.99), assign_after_triage. Members not sent are kept. Audit-logged as `triage.updated`.",
        },
      },
    );
}
