import { openapi } from "@elysiajs/openapi";
import { Elysia } from "elysia";
import { z } from "zod";
import type { Deps } from "./deps";
import { DeskError } from "./http/errors";
import { asDeskError } from "./http/errors-map";
import { normalizeBody, parseFailure } from "./http/parse";
import { errorResponse } from "./http/respond";
import { requestMeta } from "./http/request-meta";
import { featureRoutes } from "./registry";

/**
 * The Elysia app with every feature's routes. It never listens: `src/http/server.ts` wraps it
 * for Bun.serve, and tests call it through that same wrapper.
 */
export function buildApp(deps: Deps) {
  const v1 = new Elysia({ prefix: "/v1" });
  for (const routes of featureRoutes(deps)) v1.use(routes);

  return new Elysia({ name: "desk" })
    .onTransform({ as: "global" }, normalizeBody)
    .onError({ as: "global" }, ({ code, error, request }) => {
      if (code === "NOT_FOUND") requestMeta(request).unmatched = true;
      const desk = code === "PARSE" && !(error.cause instanceof DeskError) ? parseFailure(request) : asDeskError(code, error);
      if (desk.status >= 500) {
        deps.logger.error({ err: error, req_id: requestMeta(request).requestId, path: new URL(request.url).pathname }, "request failed");
      }
      return errorResponse(desk);
    })
    .use(
      openapi({
        provider: null,
        path: "/v1/openapi",
        specPath: "/v1/openapi.json",
        exclude: { paths: [/^(?!\/v1\/).*/, "/v1/openapi.json", "/v1/openapi"] },
        mapJsonSchema: { zod: (schema: z.ZodType) => z.toJSONSchema(schema, { unrepresentable: "any", io: "input" }) },
        documentation: {
          info: {
            title: "Desk API",
            version: "1",
            description:
              "Self-hosted multi-tenant help desk. Authenticate with `Authorization: Bearer <API key>`, or a signed-in " +
              "access token plus `DESK-Workspace: <workspace id>`. Errors: `{ status, code, detail, errors? }`. " +
              "Lists page with `limit` and `cursor` and answer `{ data, next_cursor }`.",
          },
          components: {
            securitySchemes: { bearer: { type: "http", scheme: "bearer" } },
          },
          security: [{ bearer: [] }],
        },
      }),
    )
    .get("/healthz", () => ({ ok: true }), { detail: { hide: true } })
    .use(v1);
}

export type App = ReturnType<typeof buildApp>;
