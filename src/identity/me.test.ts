import { first } from "../db/store";
import { describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { revokeApiKey } from "../api-keys/api-keys.service";
import { startTestDesk } from "../../test/harness";
import { ALL_SCOPES, addMember, createKey, createUser, createWorkspaceWithOwner } from "../../test/factories";
import { apiKeys } from "../api-keys/api-keys.table";
import { users } from "./identity.table";
import { workspaces } from "../workspaces/workspaces.table";

const desk = await startTestDesk();
const auth = (token: string) => ({ authorization: `Bearer ${token}` });

describe("GET /v1/me", () => {
  test("no or a malformed credential is 401", async () => {
    expect((await desk.api("GET", "/v1/me")).status).toBe(401);
    expect((await desk.api("GET", "/v1/me", { headers: { authorization: "Bearer nonsense" } })).status).toBe(401);
    expect((await desk.api("GET", "/v1/me", { headers: { authorization: "Basic abc" } })).status).toBe(401);
  });

  test("a person: themselves and every workspace they belong to with their role (no DESK-Workspace needed)", async () => {
    const { workspace: first, owner } = await createWorkspaceWithOwner(desk);
    const { workspace: second } = await createWorkspaceWithOwner(desk);
    const { workspace: gone } = await createWorkspaceWithOwner(desk);
    const { members } = await import("../members/members.table");
    await desk.deps.db
      .insert(members)
      .values({ workspaceId: second.id, userId: owner.id, role: "viewer", createdAt: new Date().toISOString() });
    await desk.deps.db
      .insert(members)
      .values({ workspaceId: gone.id, userId: owner.id, role: "agent", createdAt: new Date().toISOString() });
    await desk.deps.db
      .update(workspaces)
      .set({ deletedAt: new Date().toISOString() })
      .where(eq(workspaces.id, gone.id));

    const res = await desk.api("GET", "/v1/me", { headers: auth(owner.token) });
    expect(res.status).toBe(200);
    expect(res.body.user).toEqual({
      id: owner.id,
      name: owner.name,
      email: owner.email,
      avatar_url: null,
      avatar_source: null,
      mfa_enabled: false,
      locale: null,
      created_at: expect.any(String),
    });
    expect(res.body.workspaces).toEqual([
      { id: first.id, name: first.name, slug: first.slug, role: "owner" },
      { id: second.id, name: second.name, slug: second.slug, role: "viewer" },
    ]);
    expect(res.body.api_key).toBeUndefined();
  });

  test("an API key: its creator, only its own workspace with role admin, and the key", async () => {
    const { workspace, owner } = await createWorkspaceWithOwner(desk);
    await createWorkspaceWithOwner(desk); // another workspace the key must not reveal
    const key = await createKey(desk, owner, ["tickets:read"]);
    const res = await desk.api("GET", "/v1/me", { headers: { ...key.headers, "desk-workspace": "ignored" } });
    expect(res.status).toBe(200);
    expect(res.body.user).toMatchObject({ id: owner.id, email: owner.email });
    expect(res.body.workspaces).toEqual([
      { id: workspace.id, name: workspace.name, slug: workspace.slug, role: "admin" },
    ]);
    expect(res.body.api_key).toEqual({ id: key.id, name: expect.any(String), scopes: ["tickets:read"] });
  });

  test("an API key without a known creator answers user null; a revoked key is 401", async () => {
    const { owner } = await createWorkspaceWithOwner(desk);
    const key = await createKey(desk, owner, ALL_SCOPES);
    await desk.deps.db.update(apiKeys).set({ createdBy: null }).where(eq(apiKeys.id, key.id));
    const res = await desk.api("GET", "/v1/me", { headers: key.headers });
    expect(res.status).toBe(200);
    expect(res.body.user).toBeNull();
    expect(res.body.api_key.scopes).toEqual(ALL_SCOPES);
    await revokeApiKey(owner.ctx, key.id, desk.deps);
    expect((await desk.api("GET", "/v1/me", { headers: key.headers })).status).toBe(401);
  });
});

describe("PATCH /v1/me", () => {
  test("changes the name (trimmed) and answers like GET", async () => {
    const { workspace } = await createWorkspaceWithOwner(desk);
    const agent = await addMember(desk, workspace.id, "agent");
    const res = await desk.api("PATCH", "/v1/me", { headers: auth(agent.token), body: { name: "  Renamed Person " } });
    expect(res.status).toBe(200);
    expect(res.body.user.name).toBe("Renamed Person");
    expect(res.body.workspaces).toEqual([expect.objectContaining({ id: workspace.id, role: "agent" })]);
    expect(first(await desk.deps.db.select().from(users).where(eq(users.id, agent.id)).limit(1))!.name).toBe(
      "Renamed Person",
    );
  });

  test("an empty body changes nothing", async () => {
    const person = await createUser(desk, { name: "Same Name" });
    const res = await desk.api("PATCH", "/v1/me", { headers: auth(person.token), body: {} });
    expect(res.status).toBe(200);
    expect(res.body.user.name).toBe("Same Name");
  });

  test.each([
    ["blank name", { name: "   " }, "body.name"],
    ["wrong type", { name: 42 }, "body.name"],
    ["too long", { name: "n".repeat(101) }, "body.name"],
    ["unknown field", { email: "new@example.test" }, "body"],
  ])("%s is 422 and changes nothing", async (_label, body, location) => {
    const person = await createUser(desk, { name: "Unchanged" });
    const res = await desk.api("PATCH", "/v1/me", { headers: auth(person.token), body });
    expect(res.status).toBe(422);
    expect(res.body.errors.map((e: { location: string }) => e.location)).toContain(location);
    expect(first(await desk.deps.db.select().from(users).where(eq(users.id, person.id)).limit(1))!).toMatchObject({
      name: "Unchanged",
      email: person.email,
    });
  });

  test("sets the member's language, stored canonical and shown by GET /v1/me, and to the API key's creator; null clears it", async () => {
    const { owner } = await createWorkspaceWithOwner(desk);
    const set = await desk.api("PATCH", "/v1/me", { headers: auth(owner.token), body: { locale: " PT-br " } });
    expect(set.status).toBe(200);
    expect(set.body.user.locale).toBe("pt-BR");
    expect((await desk.api("GET", "/v1/me", { headers: auth(owner.token) })).body.user.locale).toBe("pt-BR");
    const key = await createKey(desk, owner, ALL_SCOPES);
    expect((await desk.api("GET", "/v1/me", { headers: key.headers })).body.user.locale).toBe("pt-BR");

    // A language Desk ships no texts for is the member's choice all the same (the app shows it right to left).
    const arabic = await desk.api("PATCH", "/v1/me", { headers: auth(owner.token), body: { locale: "ar-eg" } });
    expect(arabic.body.user.locale).toBe("ar-EG");
    const renamed = await desk.api("PATCH", "/v1/me", { headers: auth(owner.token), body: { name: "Still Arabic" } });
    expect(renamed.body.user.locale).toBe("ar-EG");

    const cleared = await desk.api("PATCH", "/v1/me", { headers: auth(owner.token), body: { locale: null } });
    expect(cleared.status).toBe(200);
    expect(cleared.body.user.locale).toBeNull();
    expect(first(await desk.deps.db.select().from(users).where(eq(users.id, owner.id)).limit(1))!.locale).toBeNull();
  });

  test.each([
    ["not a tag", "not a language!"],
    ["empty", ""],
    ["markup", "<script>"],
    ["too long", `en-${"a".repeat(8)}-${"b".repeat(8)}-${"c".repeat(8)}-${"d".repeat(8)}`],
    ["wrong type", 42],
    ["a list", ["de"]],
  ])("locale %s is 422 at body.locale and keeps the language", async (_label, locale) => {
    const person = await createUser(desk, { name: "Keeps German" });
    await desk.api("PATCH", "/v1/me", { headers: auth(person.token), body: { locale: "de" } });
    const res = await desk.api("PATCH", "/v1/me", { headers: auth(person.token), body: { locale } });
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({ status: 422, code: expect.any(String), detail: expect.any(String) });
    expect(res.body.errors.map((e: { location: string }) => e.location)).toContain("body.locale");
    expect(first(await desk.deps.db.select().from(users).where(eq(users.id, person.id)).limit(1))!.locale).toBe("de");
  });

  test("API keys cannot change a person (403); no credential is 401 before validation", async () => {
    const { owner } = await createWorkspaceWithOwner(desk);
    const key = await createKey(desk, owner, ALL_SCOPES);
    expect((await desk.api("PATCH", "/v1/me", { headers: key.headers, body: { name: "Key" } })).status).toBe(403);
    expect((await desk.api("PATCH", "/v1/me", { body: { name: 42 } })).status).toBe(401);
  });
});
