import { describe, expect, test } from "bun:test";
import { probeHostileJson } from "../../scripts/probe-hostile-json";
import { createWorkspaceWithOwner } from "../../test/factories";
import { startTestDesk } from "../../test/harness";
import { JSON_LIMITS } from "./json-bounds";

const desk = await startTestDesk();

async function newTicket(headers: Record<string, string>) {
  const created = await desk.api("POST", "/v1/tickets", {
    headers,
    body: { subject: "Hostile", contact: { email: "c@example.test" } },
  });
  expect(created.status).toBe(201);
  return created.body as { id: string; subject: string };
}

describe("hostile JSON bodies", () => {
  test("a burst nested 100,000 levels deep answers 422 while /healthz stays responsive", async () => {
    const { owner } = await createWorkspaceWithOwner(desk);
    const ticket = await newTicket(owner.headers);
    const result = await probeHostileJson({
      url: desk.url,
      count: 8,
      ticketPath: `/v1/tickets/${ticket.id}`,
      headers: owner.headers,
    });
    expect(result.hostile.map((h) => h.status)).toEqual(Array(8).fill(422));
    // Before the bounds each hostile request held the process for seconds, and /healthz with it.
    expect(result.healthzMs.length).toBeGreaterThan(0);
    expect(Math.max(...result.healthzMs)).toBeLessThan(2000);
    expect((await desk.api("GET", `/v1/tickets/${ticket.id}`, { headers: owner.headers })).body.custom).toEqual({});
  }, 60_000);

  test("depth, key count and string length are bounded before validation, with a location", async () => {
    const { owner } = await createWorkspaceWithOwner(desk);
    const ticket = await newTicket(owner.headers);
    const patch = (raw: string) =>
      desk.api("PATCH", `/v1/tickets/${ticket.id}`, {
        headers: { ...owner.headers, "content-type": "application/json" },
        raw,
      });

    const deep = await patch(`{"custom":${'{"a":'.repeat(40)}1${"}".repeat(40)}}`);
    expect(deep.status).toBe(422);
    expect(deep.body).toEqual({
      status: 422,
      code: "validation_failed",
      detail: expect.any(String),
      errors: [
        { location: expect.stringMatching(/^body\.custom\.a\.a/), message: expect.stringContaining("levels deep") },
      ],
    });
    // Nesting within the limit is still the route's to judge.
    const fine = await patch(`{"custom":${'{"a":'.repeat(5)}1${"}".repeat(5)}}`);
    expect(fine.status).toBe(200);

    const manyKeys = Object.fromEntries(Array.from({ length: JSON_LIMITS.keys + 1 }, (_, i) => [`k${i}`, 1]));
    const keys = await patch(JSON.stringify({ custom: manyKeys }));
    expect(keys.status).toBe(422);
    expect(keys.body.errors[0].message).toContain("keys");

    const manyValues = await patch(JSON.stringify({ custom: { list: Array(JSON_LIMITS.values + 1).fill(0) } }));
    expect(manyValues.status).toBe(422);
    expect(manyValues.body.errors[0].location).toMatch(/^body\.custom\.list\./);

    const longKey = await patch(JSON.stringify({ custom: { ["k".repeat(JSON_LIMITS.keyLength + 1)]: 1 } }));
    expect(longKey.status).toBe(422);
  });

  test("NUL characters in any JSON string or key answer 422 and are never stored", async () => {
    const { owner } = await createWorkspaceWithOwner(desk);
    const create = await desk.api("POST", "/v1/tickets", {
      headers: owner.headers,
      body: { subject: "before\u0000after", contact: { email: "c@example.test" } },
    });
    expect(create.status).toBe(422);
    expect(create.body.errors).toEqual([{ location: "body.subject", message: expect.stringContaining("NUL") }]);
    const email = await desk.api("POST", "/v1/tickets", {
      headers: owner.headers,
      body: { subject: "ok", contact: { email: "c\u0000@example.test" } },
    });
    expect(email.status).toBe(422);
    expect(email.body.errors[0].location).toBe("body.contact.email");
    const ticket = await newTicket(owner.headers);
    const key = await desk.api("PATCH", `/v1/tickets/${ticket.id}`, {
      headers: owner.headers,
      body: { custom: { "a\u0000b": 1 } },
    });
    expect(key.status).toBe(422);
    expect((await desk.api("GET", `/v1/tickets/${ticket.id}`, { headers: owner.headers })).body.custom).toEqual({});
  });
});

describe("non-JSON bodies on JSON routes", () => {
  test("form-encoded and multipart bodies answer 415; upload routes still take multipart", async () => {
    const { owner } = await createWorkspaceWithOwner(desk);
    const form = await desk.api("POST", "/v1/tickets", {
      headers: { ...owner.headers, "content-type": "application/x-www-form-urlencoded" },
      raw: "subject=Hello&contact%5Bemail%5D=c%40example.test",
    });
    expect(form.status).toBe(415);
    expect(form.body).toEqual({ status: 415, code: "unsupported_media_type", detail: expect.any(String) });
    const multipart = new FormData();
    multipart.set("subject", "Hello");
    const parts = await desk.api("POST", "/v1/tickets", { headers: owner.headers, raw: multipart });
    expect(parts.status).toBe(415);
    const login = new FormData();
    login.set("email", "a@example.test");
    login.set("password", "x");
    expect((await desk.api("POST", "/v1/auth/login", { raw: login })).status).toBe(415);
    const brokenParts = await desk.api("POST", "/v1/tickets", {
      headers: { ...owner.headers, "content-type": "multipart/form-data; boundary=x" },
      raw: "--y\r\nnot a part",
    });
    expect(brokenParts.status).toBe(415);
    const binary = await desk.api("POST", "/v1/tickets", {
      headers: { ...owner.headers, "content-type": "application/octet-stream" },
      raw: "subject",
    });
    expect(binary.status).toBe(415);

    const upload = new FormData();
    upload.set("file", new Blob(["hello"], { type: "text/plain" }), "hello.txt");
    const uploaded = await desk.api("POST", "/v1/attachments", { headers: owner.headers, raw: upload });
    expect(uploaded.status).toBe(201);
  });

  test("a bare POST with no body still reads as {}", async () => {
    const { owner } = await createWorkspaceWithOwner(desk);
    const res = await desk.api("POST", "/v1/tickets", { headers: owner.headers });
    expect(res.status).toBe(422);
    expect(res.body.errors.map((e: { location: string }) => e.location)).toContain("body.subject");
  });
});

describe("metrics labels", () => {
  test("paths no route serves count under one label, never verbatim", async () => {
    // Metrics are kept per process (other desks of this test run count too): compare before and after.
    const unmatched = (text: string) =>
      Number(/desk_http_requests_total\{method="GET",route="\(unmatched\)",status="404"\} (\d+)/.exec(text)?.[1] ?? 0);
    const before = unmatched(await (await fetch(`${desk.url}/metrics`)).text());
    const probes = [
      `/v1/no-such-${crypto.randomUUID().slice(0, 8)}x`,
      `/v1/tickets/a/b/c/zz${Date.now()}q`,
      `/docs/zz${Date.now()}w`,
      `/zz${Date.now()}e`,
    ];
    for (const path of probes) expect((await fetch(desk.url + path)).status).toBe(404);
    await fetch(`${desk.url}/v1/healthz-nope`, { method: "BREW" });
    const text = await (await fetch(`${desk.url}/metrics`)).text();
    for (const path of probes) expect(text).not.toContain(path.slice(3));
    expect(unmatched(text) - before).toBeGreaterThanOrEqual(3);
    expect(text).not.toContain('method="BREW"');
  });
});
