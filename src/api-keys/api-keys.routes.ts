import { Elysia } from "elysia";
import type { Deps } from "../deps";
import { IdParams } from "../http/schemas";
import { userRef } from "../identity/identity.public";
import { presentApiKey } from "./api-keys.present";
import {
  ApiKeyListQuery,
  ApiKeyPage,
  ApiKeySchema,
  CreateApiKeyBody,
  CreatedApiKeySchema,
  UpdateApiKeyBody,
} from "./api-keys.schemas";
import { createApiKey, getApiKey, listApiKeys, presentApiKeyRow, revokeApiKey, updateApiKey } from "./api-keys.service";

const settingsWrite = { role: "admin", scopes: ["settings:read", "settings:write"] } as const;

export function apiKeysRoutes(deps: Deps) {
  return new Elysia({ prefix: "/api-keys", tags: ["api-keys"] })
    .use(deps.guard)
    .post(
      "/",
      async ({ ctx, body, set }) => {
        const { row, secret } = await createApiKey(ctx, body, deps);
        set.status = 201;
        return { ...presentApiKey(row, await userRef(deps.db, row.createdBy)), secret };
      },
      {
        access: settingsWrite,
        body: CreateApiKeyBody,
        response: { 201: CreatedApiKeySchema },
        detail: {
          summary: "Create an API key; the secret is shown only here",
          description:
            "A key acts as an admin bounded by its scopes, so it sees every private team's tickets, messages and events " +
            "(within `tickets:read`), whoever created it and whichever teams they are in; give one only to a system trusted with all of them. " +
            "A key creating keys grants only scopes it holds and no expiry later than its own; it changes or revokes only keys whose scopes it holds (403).",
        },
      },
    )
    .get("/", async ({ ctx, query }) => await listApiKeys(ctx, query, deps), {
      access: settingsWrite,
      query: ApiKeyListQuery,
      response: { 200: ApiKeyPage },
      detail: {
        summary: "List API keys (prefix, scopes, creator, expiry, last use), newest first",
        description: "Every key listed reaches every private team within its scopes, as an admin does.",
      },
    })
    .get("/:id", async ({ ctx, params }) => await presentApiKeyRow(deps.db, await getApiKey(ctx, params.id, deps)), {
      access: settingsWrite,
      params: IdParams,
      response: { 200: ApiKeySchema },
      detail: { summary: "One API key" },
    })
    .patch(
      "/:id",
      async ({ ctx, params, body }) => await presentApiKeyRow(deps.db, await updateApiKey(ctx, params.id, body, deps)),
      {
        access: settingsWrite,
        params: IdParams,
        body: UpdateApiKeyBody,
        response: { 200: ApiKeySchema },
        detail: { summary: "Rename a key, replace its scopes or change its expiry (null: never expires)" },
      },
    )
    .delete(
      "/:id",
      async ({ ctx, params, set }) => {
        await revokeApiKey(ctx, params.id, deps);
        set.status = 204;
        return null;
      },
      {
        access: settingsWrite,
        params: IdParams,
        detail: { summary: "Revoke a key; it stops working on its very next request" },
      },
    );
}
