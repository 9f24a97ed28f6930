import { first } from "../db/store";
import { describe, expect, test } from "bun:test";
import { and, eq } from "drizzle-orm";
import { onAccessEnded, type AccessEnded } from "../auth/session-signals";
import { auditLogs } from "../audit/audit.table";
import { events } from "../events/events.table";
import { apiKeys } from "./api-keys.table";
import { startTestDesk } from "../../test/harness";
import { addMember, createKey, createWorkspaceWithOwner } from "../../test/factories";

const desk = await startTestDesk();
const admin = ["settings:read", "settings:write"] as const;
const auditOf = async (wid: string, action: string) =>
  await desk.deps.db
    .select()
    .from(auditLogs)
    .where(and(eq(auditLogs.workspaceId, wid), eq(auditLogs.action, action)));

describe("API keys", () => {
  test("access: none 401, agent 403, key without settings scopes 403, other workspace 404", async () => {
    const { workspace, owner } = await createWorkspaceWithOwner(desk);
    const other = await createWorkspaceWithOwner(desk);
    const agent = await addMember(desk, workspace.id, "agent");
    const key = await createKey(desk, owner, ["tickets:read"]);
    expect((await desk.api("GET", "/v1/api-keys")).status).toBe(401);
    expect((await desk.api("GET", "/v1/api-keys", { headers: agent.headers })).status).toBe(403);
    expect((await desk.api("GET", "/v1/api-keys", { headers: key.headers })).status).toBe(403);
    for (const [method, body] of [
      ["GET", undefined],
      ["PATCH", { name: "stolen" }],
      ["DELETE", undefined],
    ] as const) {
      expect(
        (await desk.api(method, `/v1/api-keys/${key.id}`, { headers: other.owner.headers, body })).status,
        method,
      ).toBe(404);
      expect((await desk.api(method, `/v1/api-keys/${key.id}`, { headers: agent.headers, body })).status, method).toBe(
        403,
      );
    }
    expect(
      (await desk.api("GET", "/v1/workspace", { headers: (await createKey(desk, owner, ["settings:read"])).headers }))
        .status,
    ).toBe(200);
    expect(
      first(await desk.deps.db.select().from(apiKeys).where(eq(apiKeys.id, key.id)).limit(1))!.revokedAt,
    ).toBeNull();
  });

  test("list shows prefix, scopes, creator, expiry and last use, never the secret or hash", async () => {
    const { owner } = await createWorkspaceWithOwner(desk);
    const used = await createKey(desk, owner, ["settings:read"]);
    await desk.api("GET", "/v1/workspace", { headers: used.headers });
    const res = await desk.api("GET", "/v1/api-keys", { headers: owner.headers });
    expect(res.status).toBe(200);
    expect(res.body.data).toHaveLength(1);
    expect(res.body.data[0]).toEqual({
      id: used.id,
      name: expect.any(String),
      prefix: used.secret.slice(0, 16),
      scopes: ["settings:read"],
      last_used_at: expect.any(String),
      expires_at: null,
      created_at: expect.any(String),
      created_by: { id: owner.id, name: owner.name, email: owner.email, avatar_url: null },
    });
    expect(res.text).not.toContain(used.secret);
    expect(res.text).not.toContain("hash");
  });

  test("PATCH validates, changes name, scopes and expiry, audit-logged, no events; scopes apply on the next request", async () => {
    const { workspace, owner } = await createWorkspaceWithOwner(desk);
    const key = await createKey(desk, owner, ["settings:read"]);
    for (const body of [
      { scopes: [] },
      { scopes: ["root"] },
      { name: "" },
      { expires_at: "tomorrow" },
      { secret: "x" },
    ]) {
      expect(
        (await desk.api("PATCH", `/v1/api-keys/${key.id}`, { headers: owner.headers, body })).status,
        JSON.stringify(body),
      ).toBe(422);
    }
    const seqBefore = (await desk.deps.db.select().from(events).where(eq(events.workspaceId, workspace.id))).length;
    const res = await desk.api("PATCH", `/v1/api-keys/${key.id}`, {
      headers: owner.headers,
      body: { name: "CI", scopes: ["tickets:read"], expires_at: "2099-01-01T00:00:00Z" },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ name: "CI", scopes: ["tickets:read"], expires_at: "2099-01-01T00:00:00Z" });
    expect(first(await desk.deps.db.select().from(apiKeys).where(eq(apiKeys.id, key.id)).limit(1))).toMatchObject({
      name: "CI",
      scopes: ["tickets:read"],
    });
    expect((await desk.api("GET", "/v1/workspace", { headers: key.headers })).status).toBe(403);
    expect(await auditOf(workspace.id, "api_key.updated")).toEqual([
      expect.objectContaining({
        entityId: key.id,
        data: expect.objectContaining({
          name: expect.anything(),
          scopes: { from: ["settings:read"], to: ["tickets:read"] },
        }),
      }),
    ]);
    expect((await desk.deps.db.select().from(events).where(eq(events.workspaceId, workspace.id))).length).toBe(
      seqBefore,
    );
    // an expiry in the past stops the key at once
    await desk.api("PATCH", `/v1/api-keys/${key.id}`, {
      headers: owner.headers,
      body: { scopes: ["settings:read"], expires_at: "2000-01-01T00:00:00Z" },
    });
    expect((await desk.api("GET", "/v1/workspace", { headers: key.headers })).status).toBe(401);
  });

  test("a key cannot grant scopes it lacks", async () => {
    const { owner } = await createWorkspaceWithOwner(desk);
    const manager = await createKey(desk, owner, [...admin]);
    const res = await desk.api("POST", "/v1/api-keys", {
      headers: manager.headers,
      body: { name: "wider", scopes: ["tickets:write"] },
    });
    expect(res.status).toBe(403);
    const patch = await desk.api("PATCH", `/v1/api-keys/${manager.id}`, {
      headers: manager.headers,
      body: { scopes: ["settings:read", "settings:write", "tickets:write"] },
    });
    expect(patch.status).toBe(403);
    expect(
      (
        await desk.api("POST", "/v1/api-keys", {
          headers: manager.headers,
          body: { name: "narrow", scopes: ["settings:read"] },
        })
      ).status,
    ).toBe(201);
  });

  test("DELETE revokes on the very next request, audit-logged, signals access ended", async () => {
    const { workspace, owner } = await createWorkspaceWithOwner(desk);
    const key = await createKey(desk, owner, ["settings:read"]);
    expect((await desk.api("GET", "/v1/workspace", { headers: key.headers })).status).toBe(200);
    const signals: AccessEnded[] = [];
    const off = onAccessEnded(desk.deps.db, (s) => signals.push(s));
    expect((await desk.api("DELETE", `/v1/api-keys/${key.id}`, { headers: owner.headers })).status).toBe(204);
    off();
    expect((await desk.api("GET", "/v1/workspace", { headers: key.headers })).status).toBe(401);
    expect(signals).toEqual([{ kind: "api_key", apiKeyId: key.id }]);
    expect(
      first(await desk.deps.db.select().from(apiKeys).where(eq(apiKeys.id, key.id)).limit(1))!.revokedAt,
    ).not.toBeNull();
    expect(await auditOf(workspace.id, "api_key.revoked")).toHaveLength(1);
    expect((await desk.api("GET", `/v1/api-keys/${key.id}`, { headers: owner.headers })).status).toBe(404);
    expect((await desk.api("DELETE", `/v1/api-keys/${key.id}`, { headers: owner.headers })).status).toBe(404);
    expect((await desk.api("GET", "/v1/api-keys", { headers: owner.headers })).body.data).toEqual([]);
  });
});

test("the API reference and README say that a key sees every private team", async () => {
  const doc = (await desk.api("GET", "/v1/openapi.json")).body as {
    paths: Record<string, Record<string, { description?: string }>>;
  };
  expect(doc.paths["/v1/api-keys"]?.post?.description).toContain("sees every private team");
  expect(doc.paths["/v1/api-keys"]?.get?.description).toContain("every private team");
  const readme = await Bun.file(new URL("../../README.md", import.meta.url)).text();
  expect(readme.replace(/\s+/g, " ")).toContain("a key with `tickets:read` sees **every private team's** tickets");
});
