import { first } from "../db/store";
import { describe, expect, test } from "bun:test";
import { and, eq } from "drizzle-orm";
import { auditLogs } from "../audit/audit.table";
import { events } from "../events/events.table";
import { startTestDesk } from "../../test/harness";
import { addMember, createKey, createWorkspaceWithOwner } from "../../test/factories";
import { webhooks } from "./webhooks.table";

const desk = await startTestDesk({ env: { DESK_ALLOWED_PRIVATE_HOSTS: "127.0.0.1" } });
const eventTypes = async (workspaceId: string) =>
  (await desk.deps.db.select({ type: events.type }).from(events).where(eq(events.workspaceId, workspaceId))).map(
    (e) => e.type,
  );

async function setup() {
  const { workspace, owner } = await createWorkspaceWithOwner(desk);
  return { workspace, owner };
}

async function create(
  headers: Record<string, string>,
  input: Record<string, unknown> = { url: "http://127.0.0.1:9/hook", events: ["*"] },
) {
  return desk.api("POST", "/v1/webhooks", { headers, body: input });
}

describe("webhooks CRUD", () => {
  test("who may manage webhooks: 401 without a credential, 403 for agents and narrow keys", async () => {
    const { workspace, owner } = await setup();
    const agent = await addMember(desk, workspace.id, "agent");
    expect((await desk.api("GET", "/v1/webhooks")).status).toBe(401);
    expect((await create(agent.headers)).status).toBe(403);
    expect((await desk.api("GET", "/v1/webhooks", { headers: agent.headers })).status).toBe(403);
    expect((await create((await createKey(desk, owner, ["settings:read"])).headers)).status).toBe(403);
    expect((await create((await createKey(desk, owner, ["settings:write"])).headers)).status).toBe(403);
    // all events reach beyond settings: a settings key subscribes only to what it may read
    expect((await create((await createKey(desk, owner, ["settings:read", "settings:write"])).headers)).status).toBe(
      403,
    );
    expect(
      (
        await create((await createKey(desk, owner, ["settings:read", "settings:write"])).headers, {
          url: "http://127.0.0.1:9/hook",
          events: ["member.added"],
        })
      ).status,
    ).toBe(201);
    expect(
      (
        await create(
          (
            await createKey(desk, owner, [
              "settings:read",
              "settings:write",
              "tickets:read",
              "contacts:read",
              "kb:read",
            ])
          ).headers,
        )
      ).status,
    ).toBe(201);
    const admin = await addMember(desk, workspace.id, "admin");
    expect((await create(admin.headers)).status).toBe(201);
  });

  test("create answers the secret once, stores it sealed, audits and emits webhook.created", async () => {
    const { workspace, owner } = await setup();
    const res = await create(owner.headers, {
      url: "http://127.0.0.1:9/hook",
      events: ["ticket.created", "ticket.created"],
      description: "CRM sync",
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      url: "http://127.0.0.1:9/hook",
      description: "CRM sync",
      events: ["ticket.created"],
      enabled: true,
      team_ids: [],
    });
    expect(res.body.secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    const row = first(await desk.deps.db.select().from(webhooks).where(eq(webhooks.id, res.body.id)).limit(1))!;
    expect(row.secretSealed).not.toContain(res.body.secret);
    expect(desk.deps.secrets.open(row.secretSealed)).toBe(res.body.secret);
    const got = await desk.api("GET", `/v1/webhooks/${res.body.id}`, { headers: owner.headers });
    expect(got.status).toBe(200);
    expect(got.body.secret).toBeUndefined();
    expect(got.text).not.toContain(res.body.secret);
    const list = await desk.api("GET", "/v1/webhooks", { headers: owner.headers });
    expect(list.body.data.map((w: { id: string }) => w.id)).toEqual([res.body.id]);
    const audit = await desk.deps.db
      .select()
      .from(auditLogs)
      .where(and(eq(auditLogs.workspaceId, workspace.id), eq(auditLogs.action, "webhook.created")));
    expect(audit).toHaveLength(1);
    expect(await eventTypes(workspace.id)).toEqual(["workspace.updated", "webhook.created"]);
  });

  test.each([
    ["plain http to a public host", "http://hooks.example.com/x"],
    ["loopback", "https://127.0.0.2/x"],
    ["decimal loopback", "https://2130706434/x"],
    ["hex loopback", "https://0x7f.0.0.2/x"],
    ["IPv6 loopback", "https://[::1]/x"],
    ["IPv4-mapped IPv6", "https://[::ffff:10.0.0.1]/x"],
    ["link-local metadata", "https://169.254.169.254/latest"],
    ["private 10/8", "https://10.20.30.40/x"],
    ["private 192.168/16", "https://192.168.0.10/x"],
    ["unique local IPv6", "https://[fd00::1]/x"],
    ["localhost by name", "https://localhost/x"],
    ["a name resolving to loopback", "https://localhost./x"],
    ["not a URL", "hooks"],
    ["javascript scheme", "javascript:alert(1)"],
    ["credentials in the URL", "https://user:pw@hooks.example.com/x"],
  ])("refuses %s with 422 at body.url and stores nothing", async (_name, url) => {
    const { workspace, owner } = await setup();
    const res = await create(owner.headers, { url, events: ["*"] });
    expect(res.status).toBe(422);
    expect(res.body.code).toBe("validation_failed");
    expect(res.body.errors[0].location).toBe("body.url");
    expect(await desk.deps.db.select().from(webhooks).where(eq(webhooks.workspaceId, workspace.id))).toHaveLength(0);
    expect(await eventTypes(workspace.id)).toEqual(["workspace.updated"]);
  });

  test.each([
    ["unknown event type", { url: "http://127.0.0.1:9/x", events: ["ticket.exploded"] }, "body.events.0"],
    ["empty events", { url: "http://127.0.0.1:9/x", events: [] }, "body.events"],
    ["events not a list", { url: "http://127.0.0.1:9/x", events: "*" }, "body.events"],
    ["enabled not a boolean", { url: "http://127.0.0.1:9/x", events: ["*"], enabled: "yes" }, "body.enabled"],
    ["unknown field", { url: "http://127.0.0.1:9/x", events: ["*"], secret: "mine" }, "body"],
    ["missing url", { events: ["*"] }, "body.url"],
    ["unknown team", { url: "http://127.0.0.1:9/x", events: ["*"], team_ids: ["nope"] }, "body.team_ids.0"],
    [
      "huge description",
      { url: "http://127.0.0.1:9/x", events: ["*"], description: "x".repeat(501) },
      "body.description",
    ],
  ])("refuses %s with 422", async (_name, input, location) => {
    const { owner } = await setup();
    const res = await create(owner.headers, input);
    expect(res.status).toBe(422);
    expect(res.body.errors.map((e: { location: string }) => e.location)).toContain(location);
  });

  test("hostile strings are stored as given and answered as JSON", async () => {
    const { owner } = await setup();
    const description = `<script>alert(1)</script>'; DROP TABLE webhooks; --`;
    const res = await create(owner.headers, { url: "http://127.0.0.1:9/x?q=<b>", events: ["*"], description });
    expect(res.status).toBe(201);
    expect(res.body.description).toBe(description);
    // NUL characters are refused for every JSON body by the HTTP layer.
    expect(
      (await create(owner.headers, { url: "http://127.0.0.1:9/x", events: ["*"], description: "a\u0000b" })).status,
    ).toBe(422);
  });

  test("PATCH changes fields, re-checks the url, audits and emits webhook.updated; DELETE answers 204", async () => {
    const { workspace, owner } = await setup();
    const { body: hook } = await create(owner.headers);
    const patched = await desk.api("PATCH", `/v1/webhooks/${hook.id}`, {
      headers: owner.headers,
      body: { enabled: false, events: ["ticket.updated"] },
    });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ enabled: false, events: ["ticket.updated"], url: hook.url });
    const bad = await desk.api("PATCH", `/v1/webhooks/${hook.id}`, {
      headers: owner.headers,
      body: { url: "https://10.0.0.1/x" },
    });
    expect(bad.status).toBe(422);
    expect((await desk.api("GET", `/v1/webhooks/${hook.id}`, { headers: owner.headers })).body.url).toBe(hook.url);
    const deleted = await desk.api("DELETE", `/v1/webhooks/${hook.id}`, { headers: owner.headers });
    expect(deleted.status).toBe(204);
    expect((await desk.api("GET", `/v1/webhooks/${hook.id}`, { headers: owner.headers })).status).toBe(404);
    expect(await eventTypes(workspace.id)).toEqual([
      "workspace.updated",
      "webhook.created",
      "webhook.updated",
      "webhook.deleted",
    ]);
    const actions = (
      await desk.deps.db.select({ a: auditLogs.action }).from(auditLogs).where(eq(auditLogs.workspaceId, workspace.id))
    ).map((r) => r.a);
    expect(actions).toEqual(["webhook.created", "webhook.updated", "webhook.deleted"]);
  });

  test("another workspace's webhook answers 404 on every route", async () => {
    const { owner } = await setup();
    const other = await setup();
    const { body: hook } = await create(owner.headers);
    for (const [method, path, input] of [
      ["GET", `/v1/webhooks/${hook.id}`, undefined],
      ["PATCH", `/v1/webhooks/${hook.id}`, { enabled: false }],
      ["DELETE", `/v1/webhooks/${hook.id}`, undefined],
      ["GET", `/v1/webhooks/${hook.id}/deliveries`, undefined],
      ["POST", `/v1/webhooks/${hook.id}/test`, undefined],
    ] as const) {
      const res = await desk.api(method, path, { headers: other.owner.headers, body: input });
      expect(res.status, `${method} ${path}`).toBe(404);
    }
    expect((await desk.api("GET", "/v1/webhooks", { headers: other.owner.headers })).body.data).toEqual([]);
    expect((await desk.api("GET", `/v1/webhooks/${hook.id}`, { headers: owner.headers })).body.enabled).toBe(true);
  });

  test("the deliveries route documents the retry schedule in the OpenAPI document", async () => {
    const spec = await desk.api("GET", "/v1/openapi.json");
    const route = spec.body.paths["/v1/webhooks/{id}/deliveries"].get;
    expect(route.description).toContain("9 attempts over about 24 hours");
  });
});

describe("webhook reach", () => {
  test("every event type a webhook can subscribe to has a decided read scope (none falls back to hidden)", async () => {
    // Both come from the event catalogue of the registered modules.
    const { subscribable, readScopeOf } = desk.deps.events;
    expect(subscribable.length).toBeGreaterThan(40);
    const unmapped = [...subscribable, "webhook.test"].filter((type) => readScopeOf(type) === undefined);
    expect(unmapped).toEqual([]);
    expect(readScopeOf("message.created")).toBe("tickets:read");
    expect(readScopeOf("company.deleted")).toBe("contacts:read");
    expect(readScopeOf("tag.merged")).toBeNull();
  });
});
