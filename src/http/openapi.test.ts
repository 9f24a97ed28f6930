import { describe, expect, test } from "bun:test";
import { Validator } from "@seriousme/openapi-schema-validator";
import { buildApp } from "../app";
import { SCOPES } from "../auth/context";
import { startTestDesk } from "../../test/harness";
import { documentedPath } from "./openapi";

const desk = await startTestDesk({ env: { DESK_JOBS: "off" } });
const res = await desk.api("GET", "/v1/openapi.json");
type Doc = {
  paths: Record<string, Record<string, Op>>;
  components: { schemas?: Record<string, { enum?: unknown[] }>; parameters?: Record<string, { name?: string }> };
  servers: { url: string }[];
};
type Op = {
  responses: Record<string, { $ref?: string; content?: Record<string, { schema: unknown }> }>;
  parameters?: { $ref?: string; name?: string; in?: string }[];
  requestBody?: { content: Record<string, unknown> };
  security?: unknown[];
};
const doc = res.body as Doc;
const operations = Object.entries(doc.paths).flatMap(([path, item]) =>
  Object.entries(item).map(([method, op]) => ({ path, method, op })),
);
const errorCodes = (op: Op) => Object.keys(op.responses).filter((s) => Number(s) >= 400);

describe("GET /v1/openapi.json", () => {
  test("is a valid OpenAPI 3.1 document (standard validator)", async () => {
    expect(res.status).toBe(200);
    const validator = new Validator();
    const result = await validator.validate(structuredClone(doc));
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe("3.1");
  });

  test("spells every path without a trailing slash, with servers and reusable components", () => {
    expect(Object.keys(doc.paths).filter((p) => p.endsWith("/"))).toEqual([]);
    expect(doc.paths["/v1/contacts"]?.get).toBeDefined();
    expect(doc.servers[0]!.url).toBe(desk.deps.config.baseUrl);
    for (const name of [
      "Error",
      "Ticket",
      "TicketPage",
      "Message",
      "Contact",
      "ContactPage",
      "Member",
      "ApiKey",
      "Webhook",
      "Scope",
    ]) {
      expect(doc.components.schemas![name]).toBeDefined();
    }
    expect(doc.components.parameters!.Workspace.name).toBe("DESK-Workspace");
    // Operations point at components rather than repeating the shapes.
    expect(doc.paths["/v1/tickets/{id}"]!.get!.responses["200"]!.content!["application/json"]!.schema).toEqual({
      $ref: "#/components/schemas/Ticket",
    });
    expect(doc.paths["/v1/tickets"]!.get!.responses["200"]!.content!["application/json"]!.schema).toEqual({
      $ref: "#/components/schemas/TicketPage",
    });
  });

  test("every operation documents its success answer and the errors its guard and validation produce", () => {
    for (const { path, method, op } of operations) {
      const where = `${method} ${path}`;
      expect([where, Object.keys(op.responses).some((s) => /^[23]/.test(s))]).toEqual([where, true]);
      for (const code of errorCodes(op))
        expect([where, op.responses[code]!.$ref]).toEqual([
          where,
          expect.stringMatching(/^#\/components\/responses\//),
        ]);
      const guarded = op.security === undefined || op.security.length > 0;
      if (guarded) expect([where, errorCodes(op)]).toEqual([where, expect.arrayContaining(["401"])]);
      if (op.parameters?.some((p) => p.$ref === "#/components/parameters/Workspace")) {
        expect([where, errorCodes(op)]).toEqual([where, expect.arrayContaining(["401", "403", "404", "422"])]);
      }
      if (op.requestBody?.content["application/json"])
        expect([where, errorCodes(op)]).toEqual([where, expect.arrayContaining(["400", "413", "415", "422"])]);
      if (path.includes("{")) expect([where, errorCodes(op)]).toEqual([where, expect.arrayContaining(["404"])]);
    }
    // Workspace routes name the DESK-Workspace header; person-only routes without a workspace do not.
    expect(doc.paths["/v1/tickets"]!.get!.parameters).toContainEqual({ $ref: "#/components/parameters/Workspace" });
    expect(doc.paths["/v1/me/mfa/setup"]!.post!.parameters ?? []).not.toContainEqual({
      $ref: "#/components/parameters/Workspace",
    });
    expect(doc.paths["/v1/auth/login"]!.post!.security).toEqual([]);
  });

  test("uploads and inbound mail document their request bodies", () => {
    const upload = doc.paths["/v1/attachments"]!.post!;
    expect(Object.keys(upload.requestBody!.content)).toEqual(["multipart/form-data"]);
    const inbound = doc.paths["/v1/inbound/email"]!.post!;
    expect(Object.keys(inbound.requestBody!.content)).toEqual(["message/rfc822"]);
    expect(inbound.security).toEqual([{ inboundSecret: [] }]);
  });

  test("advertises only the scopes some served route asks for", () => {
    const text = JSON.stringify(doc);
    const kbServed = Object.keys(doc.paths).some((p) => p.startsWith("/v1/kb/"));
    if (!kbServed) expect(text).not.toContain("kb:read");
    const advertised = doc.components.schemas!.Scope.enum as string[];
    expect(advertised.length).toBeGreaterThan(0);
    for (const scope of advertised) expect(SCOPES as readonly string[]).toContain(scope);
  });

  test("every served route is documented, and every documented path is served", async () => {
    const served = buildApp(desk.deps).routes.filter(
      (r) => r.path.startsWith("/v1/") && !(r.hooks as { detail?: { hide?: boolean } }).detail?.hide,
    );
    const documented = new Set(operations.map(({ path, method }) => `${method.toUpperCase()} ${path}`));
    const servedKeys = new Set(served.map((r) => `${r.method} ${documentedPath(r.path)}`));
    expect([...servedKeys].filter((k) => !documented.has(k))).toEqual([]);
    expect([...documented].filter((k) => !servedKeys.has(k))).toEqual([]);
    // The documented spelling itself reaches a route (no router 404) through the whole HTTP stack.
    const unrouted: string[] = [];
    for (const { path, method } of operations) {
      const concrete = path.replace(/\{[^}]+\}/g, "00000000-0000-7000-8000-000000000000");
      const answer = await desk.api(
        method.toUpperCase(),
        concrete,
        method === "get" || method === "delete" ? {} : { body: {} },
      );
      if (answer.status === 404 && answer.body?.detail === "No route matches this path.")
        unrouted.push(`${method} ${path}`);
    }
    expect(unrouted).toEqual([]);
  });
});
