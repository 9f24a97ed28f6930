import { Elysia } from "elysia";
import type { Deps } from "../deps";
import { userRef } from "../users/users.present";
import { presentApiKey } from "./api-keys.present";
import { CreateApiKeyBody, CreatedApiKeySchema } from "./api-keys.schemas";
import { createApiKey } from "./api-keys.service";

const settingsWrite = { role: "admin", scopes: ["settings:read", "settings:write"] } as const;

export function apiKeysRoutes(deps: Deps) {
  return new Elysia({ prefix: "/api-keys", tags: ["api-keys"] })
    .use(deps.guard)
    .post(
      "/",
      ({ ctx, body, set }) => {
        const { row, secret } = createApiKey(ctx, body, deps);
        set.status = 201;
        return { ...presentApiKey(row, userRef(deps.db, row.createdBy)), secret };
      },
      { access: settingsWrite, body: CreateApiKeyBody, response: { 201: CreatedApiKeySchema }, detail: { summary: "Create an API key; the secret is shown only here" } },
    );
}
