import { afterAll, describe, expect, test } from "bun:test";
import type { Server } from "bun";
import { Elysia } from "elysia";
import { createKey, createWorkspaceWithOwner } from "../../test/factories";
import { startTestDesk } from "../../test/harness";
import { httpDepsOf } from "../compose";
import { asDeskError } from "../http/errors-map";
import { guardRuleOf } from "../http/guard-rules";
import { buildOpenApiDocument, type DocumentedRoute, type RouteSchemas } from "../http/openapi";
import { errorResponse } from "../http/respond";
import { createHttpHandler } from "../http/server";
import { manualClock } from "../lib/clock";
import { SCOPE_TEXT } from "./context";
import { guardPlugin } from "./guard";
import type { VisitorResolver, VisitorSession } from "./visitors";

// The guard for the two audiences without a person or key behind them: public routes (no credential,
// a budget per client address) and widget visitors (`Authorization: Visitor <token>`). The widget
// feature will implement the visitor resolver; this tiny one stands in for it.
const clock = manualClock();
const desk = await startTestDesk({ clock });
const { workspace, owner } = await createWorkspaceWithOwner(desk);
const other = await createWorkspaceWithOwner(desk);

const LIVE_TOKEN = `desk_vis_${"a".repeat(43)}`;
const ENDED_TOKEN = `desk_vis_${"b".repeat(43)}`;
const asked: string[] = [];
const visitors: VisitorResolver = {
  session(token): VisitorSession | null {
    asked.push(token);
    return token === LIVE_TOKEN ? { sessionId: "vs1", workspaceId: workspace.id, contactId: "c1" } : null;
  },
};

const guard = guardPlugin(desk.deps.credentials, { visitors, clock });
const app = new Elysia()
  .onError(({ code, error }) => errorResponse(asDeskError(code, error)))
  .use(guard)
  .get("/v1/widget/whoami", ({ visitor }) => ({ workspace_id: visitor.workspaceId, contact_id: visitor.contactId }), {
    visitor: true,
  })
  .get("/v1/help/ping", ({ visit }) => ({ ip: visit.ip }), { public: { limit: 3, windowMs: 60_000 } })
  .get("/v1/help/other", () => ({ ok: true }), { public: true });
const handler = createHttpHandler((request) => app.handle(request), httpDepsOf(desk.deps));
// A real socket: the public budget is per client address, which only a socket has.
const server = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: (r, s) => handler(r, s as Server<unknown>) });
afterAll(() => server.stop(true));
const get = (path: string, headers: Record<string, string> = {}) =>
  fetch(`http://127.0.0.1:${server.port}${path}`, { headers });

describe("visitor credential", () => {
  test("the workspace is the visitor session's, whatever DESK-Workspace says", async () => {
    const res = await get("/v1/widget/whoami", {
      authorization: `Visitor ${LIVE_TOKEN}`,
      "desk-workspace": other.workspace.id,
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ workspace_id: workspace.id, contact_id: "c1" });
  });

  test("no credential, an ended session, a malformed token and people's credentials answer 401", async () => {
    const key = await createKey(desk, owner, ["tickets:read"]);
    asked.length = 0;
    for (const headers of [
      {},
      { authorization: `Visitor ${ENDED_TOKEN}` },
      { authorization: "Visitor desk_vis_short" },
      { authorization: `Bearer ${LIVE_TOKEN}` },
      key.headers,
      owner.headers,
    ]) {
      const res = await get("/v1/widget/whoami", headers);
      expect(res.status).toBe(401);
      expect(await res.json()).toEqual({ status: 401, code: "unauthorized", detail: expect.any(String) });
    }
    // Only the well-formed visitor token reached the resolver.
    expect(asked).toEqual([ENDED_TOKEN]);
  });
});

describe("public routes", () => {
  test("need no credential, and past the budget per client address answer 429 with Retry-After until the window passes", async () => {
    for (let i = 0; i < 3; i++) {
      const res = await get("/v1/help/ping");
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ ip: "127.0.0.1" });
      // The standard RateLimit-* headers state the budget after this request.
      expect(res.headers.get("ratelimit-limit")).toBe("3");
      expect(res.headers.get("ratelimit-remaining")).toBe(String(2 - i));
      expect(res.headers.get("ratelimit-reset")).toBe("60");
    }
    const limited = await get("/v1/help/ping");
    expect(limited.status).toBe(429);
    expect((await limited.json()).code).toBe("rate_limited");
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(limited.headers.get("ratelimit-limit")).toBe("3");
    expect(limited.headers.get("ratelimit-remaining")).toBe("0");
    expect(limited.headers.get("ratelimit-reset")).toBe(limited.headers.get("retry-after"));
    // Another budget is not spent by this one.
    expect((await get("/v1/help/other")).status).toBe(200);
    clock.advance(61_000);
    expect((await get("/v1/help/ping")).status).toBe(200);
  });

  test("an in-process call with no client address is not limited", async () => {
    for (let i = 0; i < 5; i++) {
      const res = await handler(new Request("http://localhost/v1/help/ping"));
      expect(res.status).toBe(200);
      expect(res.headers.get("ratelimit-limit")).toBeNull();
    }
  });
});

test("the API document reads both guards: public routes need no security and may answer 429, visitor routes name the visitor scheme", () => {
  const routes: DocumentedRoute[] = app.routes.map((r) => ({
    method: r.method,
    path: r.path,
    hooks: r.hooks as RouteSchemas,
  }));
  expect(guardRuleOf(routes.find((r) => r.path === "/v1/help/ping")!.hooks.transform)).toEqual({ kind: "public" });
  const doc = buildOpenApiDocument(routes, { serverUrl: "http://localhost", scopes: SCOPE_TEXT }) as {
    paths: Record<string, Record<string, { security?: unknown[]; responses: Record<string, unknown> }>>;
    components: { securitySchemes: Record<string, unknown> };
  };
  const ping = doc.paths["/v1/help/ping"]!.get!;
  expect(ping.security).toEqual([]);
  expect(Object.keys(ping.responses)).toContain("429");
  const whoami = doc.paths["/v1/widget/whoami"]!.get!;
  expect(whoami.security).toEqual([{ visitor: [] }]);
  expect(Object.keys(whoami.responses)).toContain("401");
  expect(doc.components.securitySchemes.visitor).toBeDefined();
});
