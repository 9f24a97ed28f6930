import { describe, expect, test } from "bun:test";
import { startTestDesk } from "../../test/harness";
import { addMember, createKey, createWorkspaceWithOwner } from "../../test/factories";

const desk = await startTestDesk();

describe("HTTP core", () => {
  test("health and unknown routes", async () => {
    expect((await desk.api("GET", "/healthz")).body).toEqual({ ok: true });
    const missing = await desk.api("GET", "/v1/no-such-thing");
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ status: 404, code: "not_found", detail: expect.any(String) });
    expect(missing.headers.get("x-request-id")).toBeTruthy();
  });

  test("malformed JSON, wrong content type and oversized bodies answer the error shape", async () => {
    const { owner } = await createWorkspaceWithOwner(desk);
    const bad = await desk.api("POST", "/v1/api-keys", {
      headers: { ...owner.headers, "content-type": "application/json" },
      raw: "{nope",
    });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe("malformed_json");
    const text = await desk.api("POST", "/v1/api-keys", {
      headers: { ...owner.headers, "content-type": "text/plain" },
      raw: "name=x",
    });
    expect(text.status).toBe(415);
    const huge = await desk.api("POST", "/v1/api-keys", {
      headers: owner.headers,
      body: { name: "x".repeat(2 * 1024 * 1024), scopes: ["tickets:read"] },
    });
    expect(huge.status).toBe(413);
    expect(huge.body.code).toBe("too_large");
  });

  test("validation errors name their location", async () => {
    const { owner } = await createWorkspaceWithOwner(desk);
    const res = await desk.api("POST", "/v1/api-keys", { headers: owner.headers, body: { name: 7, scopes: ["nope"] } });
    expect(res.status).toBe(422);
    expect(res.body.code).toBe("validation_failed");
    const locations = res.body.errors.map((e: { location: string }) => e.location);
    expect(locations).toContain("body.name");
    expect(locations).toContain("body.scopes.0");
  });

  test("credentials: none 401, bad 401, low role 403, other workspace 404, key scopes 403", async () => {
    const { owner, workspace } = await createWorkspaceWithOwner(desk);
    const other = await createWorkspaceWithOwner(desk);
    expect((await desk.api("GET", "/v1/workspace")).status).toBe(401);
    expect(
      (await desk.api("GET", "/v1/workspace", { headers: { authorization: "Bearer desk_live_nope" } })).status,
    ).toBe(401);
    const agent = await addMember(desk, workspace.id, "agent");
    const forbidden = await desk.api("POST", "/v1/api-keys", {
      headers: agent.headers,
      body: { name: "k", scopes: ["tickets:read"] },
    });
    expect(forbidden.status).toBe(403);
    expect(forbidden.body.code).toBe("forbidden");
    const elsewhere = await desk.api("GET", "/v1/workspace", {
      headers: { ...owner.headers, "desk-workspace": other.workspace.id },
    });
    expect(elsewhere.status).toBe(404);
    const narrow = await createKey(desk, owner, ["tickets:read"]);
    expect((await desk.api("GET", "/v1/workspace", { headers: narrow.headers })).status).toBe(403);
    const wide = await createKey(desk, owner, ["settings:read"]);
    const mine = await desk.api("GET", "/v1/workspace", {
      headers: { ...wide.headers, "desk-workspace": other.workspace.id },
    });
    expect(mine.status).toBe(200);
    expect(mine.body.id).toBe(workspace.id);
  });

  test("idempotency: replay, reuse with another body, invalid key", async () => {
    const { owner } = await createWorkspaceWithOwner(desk);
    const headers = { ...owner.headers, "idempotency-key": "abc-123" };
    const first = await desk.api("POST", "/v1/api-keys", { headers, body: { name: "once", scopes: ["tickets:read"] } });
    expect(first.status).toBe(201);
    const again = await desk.api("POST", "/v1/api-keys", { headers, body: { name: "once", scopes: ["tickets:read"] } });
    expect(again.status).toBe(201);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(again.body.id).toBe(first.body.id);
    const reused = await desk.api("POST", "/v1/api-keys", {
      headers,
      body: { name: "twice", scopes: ["tickets:read"] },
    });
    expect(reused.status).toBe(422);
    expect(reused.body.code).toBe("idempotency_key_reused");
    const invalid = await desk.api("POST", "/v1/api-keys", {
      headers: { ...owner.headers, "idempotency-key": "é" },
      body: { name: "x", scopes: ["tickets:read"] },
    });
    expect(invalid.status).toBe(422);
    expect(invalid.body.code).toBe("validation_failed");
  });

  test("an API key works at once and carries the key's workspace", async () => {
    const { owner, workspace } = await createWorkspaceWithOwner(desk);
    const created = await desk.api("POST", "/v1/api-keys", {
      headers: owner.headers,
      body: { name: "ci", scopes: ["settings:read"] },
    });
    expect(created.body.secret).toMatch(/^desk_live_[A-Za-z0-9_-]{43}$/);
    const res = await desk.api("GET", "/v1/workspace", { headers: { authorization: `Bearer ${created.body.secret}` } });
    expect(res.body.id).toBe(workspace.id);
  });

  test("OpenAPI document and docs page", async () => {
    const spec = await desk.api("GET", "/v1/openapi.json");
    expect(spec.body.openapi).toMatch(/^3\.1/);
    expect(spec.body.paths["/v1/api-keys/"] ?? spec.body.paths["/v1/api-keys"]).toBeTruthy();
    const docs = await desk.fetch(new Request("http://localhost/docs"));
    expect(await docs.text()).toContain("/v1/openapi.json");
  });

  test("probes never count as the first request; the first other request is told once", async () => {
    let told = 0;
    const fresh = await startTestDesk({ start: { onFirstRequest: () => told++ } });
    try {
      for (const path of ["/healthz", "/readyz", "/metrics", "/healthz"]) {
        expect((await fetch(`${fresh.url}${path}`)).status).toBe(200);
      }
      expect(told).toBe(0);
      expect((await fetch(`${fresh.url}/v1/me`)).status).toBe(401);
      expect((await fetch(`${fresh.url}/v1/me`)).status).toBe(401);
      expect(told).toBe(1);
    } finally {
      await fresh.stop();
    }
  });
});
