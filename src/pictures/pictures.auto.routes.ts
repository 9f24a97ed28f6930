import { Elysia } from "elysia";
import { z } from "zod";
import type { Deps } from "../deps";
import { IdParams } from "../http/schemas";
import { refreshPicture } from "./pictures.auto";

const Queued = z.object({ queued: z.literal(true) });
const agent = { role: "agent", scopes: ["contacts:write"] } as const;

const NOTE =
  "The lookup runs as a job; `contact.updated` / `company.updated` follows when it finds a picture. An uploaded picture always wins: nothing automatic replaces it. Results are shared and cached (a find for a week; a miss for a week; a failure from one hour, doubling); a refresh looks again past that memory, but never twice within a minute.";

/** POST /v1/contacts/{id}/avatar/refresh and /v1/companies/{id}/avatar/refresh: look up automatic pictures again. */
export function pictureRefreshRoutes(deps: Deps) {
  return new Elysia({ tags: ["pictures"] })
    .use(deps.guard)
    .post(
      "/contacts/:id/avatar/refresh",
      async ({ ctx, params, set }) => {
        await refreshPicture(deps, ctx, "contact", params.id);
        set.status = 202;
        return { queued: true as const };
      },
      {
        access: agent,
        params: IdParams,
        response: { 202: Queued },
        detail: {
          summary:
            "Look up the contact's automatic picture again (Gravatar, when the workspace's `gravatar` setting is on)",
          description: NOTE,
        },
      },
    )
    .post(
      "/companies/:id/avatar/refresh",
      async ({ ctx, params, set }) => {
        await refreshPicture(deps, ctx, "company", params.id);
        set.status = 202;
        return { queued: true as const };
      },
      {
        access: agent,
        params: IdParams,
        response: { 202: Queued },
        detail: {
          summary:
            "Look up the company's logo again from its domain's icons (when the workspace's `domain_logos` setting is on, the default)",
          description: NOTE,
        },
      },
    );
}
