import { Elysia } from "elysia";
import { SCOPE_TEXT } from "./auth/context";
import type { Deps } from "./deps";
import { DeskError } from "./lib/errors";
import { asDeskError } from "./http/errors-map";
import { buildOpenApiDocument, type DocumentedRoute, type RouteSchemas } from "./http/openapi";
import { normalizeBody, parseFailure } from "./http/parse";
import { errorResponse } from "./http/respond";
import { requestMeta } from "./http/request-meta";
import { createResponseCheck, responseSchemasOf, type ResponseSchemas } from "./http/response-check";
import { registerApiComponents } from "./openapi-components";
import { eventHidden } from "./events/reserved.events";
import type { FeatureModule } from "./module";
import { modules as registered } from "./registry";

/**
 * The Elysia app with every module's routes under /v1. It never listens: `src/http/server.ts` wraps
 * it for Bun.serve, and tests call it through that same wrapper.
 */
export function buildApp(deps: Deps, modules: readonly FeatureModule[] = registered) {
  registerApiComponents();
  const documented: DocumentedRoute[] = [];
  const responses: ResponseSchemas = new Map();
  const v1 = new Elysia({ prefix: "/v1" });
  for (const routes of modules.flatMap((m) => m.routes?.(deps) ?? [])) {
    for (const route of routes.routes) {
      const hooks = route.hooks as RouteSchemas;
      const path = `/v1${route.path}`;
      documented.push({ method: route.method, path, hooks: { ...hooks } });
      const schemas = responseSchemasOf(hooks.response);
      if (schemas) responses.set(`${route.method} ${path}`, schemas);
      // Response schemas document the route and are checked below in tests and development only:
      // Elysia would validate (and copy) every production answer, about a fifth of a served GET /v1/me.
      // Removed before v1 takes the route over, so no validator is ever built for them.
      hooks.response = undefined;
    }
    v1.use(routes);
  }

  let openapi: string | null = null;
  const app = new Elysia({ name: "desk" })
    .onTransform({ as: "global" }, (context) => {
      requestMeta(context.request).route = context.route;
      context.body = normalizeBody(context.request, context.body);
    })
    .onError({ as: "global" }, ({ code, error, request, route }) => {
      if (code === "NOT_FOUND") requestMeta(request).unmatched = true;
      // A body that fails to parse stops the request before transform: the template is known here too.
      else if (route) requestMeta(request).route = route;
      const desk =
        code === "PARSE" && !(error.cause instanceof DeskError) ? parseFailure(request) : asDeskError(code, error);
      if (desk.status >= 500) {
        deps.logger.error(
          { err: error, req_id: requestMeta(request).requestId, path: new URL(request.url).pathname },
          "request failed",
        );
      }
      return errorResponse(desk);
    });
  if (deps.config.responseChecks)
    app.onAfterHandle({ as: "global" }, createResponseCheck(responses, deps.logger.child({ subsystem: "http" })));
  return app
    .get(
      "/v1/openapi.json",
      ({ set }) => {
        // Built on first request (the routes never change while running) and sent as text from then on.
        openapi ??= JSON.stringify(
          buildOpenApiDocument(documented, {
            serverUrl: deps.config.baseUrl,
            scopes: SCOPE_TEXT,
            // Every event type receivers may be sent: the stand-in only ever reaches sockets and replay.
            events: deps.events.definitions.filter((event) => event.type !== eventHidden.type),
          }),
        );
        set.headers["content-type"] = "application/json; charset=utf-8";
        return openapi;
      },
      { detail: { hide: true } },
    )
    .use(v1);
}
