import { first } from "../../src/db/store";
import { describe, expect, test } from "bun:test";
import { and, eq } from "drizzle-orm";
import { apiKeys } from "../../src/api-keys/api-keys.table";
import type { Scope } from "../../src/auth/context";
import { invitations } from "../../src/invitations/invitations.table";
import { members } from "../../src/members/members.table";
import { addMember, ALL_SCOPES, createKey, createWorkspaceWithOwner } from "../factories";
import { startTestDesk } from "../harness";

/**
 * A credential never grants more than it holds (src/auth/grants.ts), on every path that creates or
 * widens a privilege: invitations, role changes and removals, API keys, private teams, webhooks.
 */
const desk = await startTestDesk({ env: { DESK_ALLOWED_PRIVATE_HOSTS: "127.0.0.1" } });

const SETTINGS: Scope[] = ["settings:read", "settings:write"];
const VIEWER_REACH: Scope[] = ["tickets:read", "contacts:read", "settings:read", "realtime"];
const AGENT_REACH: Scope[] = [...VIEWER_REACH, "tickets:write", "contacts:write"];
const roleOf = async (wid: string, uid: string) =>
  first(
    await desk.deps.db
      .select({ role: members.role })
      .from(members)
      .where(and(eq(members.workspaceId, wid), eq(members.userId, uid)))
      .limit(1),
  )?.role;
const tokenOf = (url: string) => url.slice(url.lastIndexOf("/") + 1);

describe("the reported attack: a settings key making an admin", () => {
  test("a settings:read+settings:write key cannot invite an admin, accept it and mint an all-scope key, nor PATCH a member to admin", async () => {
    const { workspace, owner } = await createWorkspaceWithOwner(desk);
    const key = await createKey(desk, owner, SETTINGS);
    const invite = await desk.api("POST", "/v1/invitations", {
      headers: key.headers,
      body: { email: "mallory@evil.test", role: "admin" },
    });
    expect(invite.status).toBe(403);
    expect(invite.body.code).toBe("forbidden");
    expect(await desk.deps.db.select().from(invitations).where(eq(invitations.workspaceId, workspace.id))).toEqual([]);
    const agent = await addMember(desk, workspace.id, "agent");
    const patch = await desk.api("PATCH", `/v1/members/${agent.id}`, { headers: key.headers, body: { role: "admin" } });
    expect(patch.status).toBe(403);
    expect(await roleOf(workspace.id, agent.id)).toBe("agent");
    const minted = await desk.api("POST", "/v1/api-keys", {
      headers: key.headers,
      body: { name: "all", scopes: ALL_SCOPES },
    });
    expect(minted.status).toBe(403);
  });
});

describe("invitations", () => {
  test("keys invite only roles whose reach their scopes cover, never admins; people up to their own role", async () => {
    const { workspace, owner } = await createWorkspaceWithOwner(desk);
    const invite = (headers: Record<string, string>, role: string) =>
      desk.api("POST", "/v1/invitations", {
        headers,
        body: { email: `someone-${role}-${crypto.randomUUID()}@example.test`, role },
      });
    expect((await invite((await createKey(desk, owner, SETTINGS)).headers, "viewer")).status).toBe(403);
    const viewerKey = await createKey(desk, owner, [...VIEWER_REACH, "settings:write"]);
    expect((await invite(viewerKey.headers, "viewer")).status).toBe(201);
    expect((await invite(viewerKey.headers, "agent")).status).toBe(403);
    const agentKey = await createKey(desk, owner, [...AGENT_REACH, "settings:write"]);
    expect((await invite(agentKey.headers, "agent")).status).toBe(201);
    const all = await createKey(desk, owner, ALL_SCOPES);
    const denied = await invite(all.headers, "admin");
    expect(denied.status).toBe(403);
    expect(denied.body.detail).toContain("cannot grant");
    const admin = await addMember(desk, workspace.id, "admin");
    const byAdmin = await invite(admin.headers, "admin");
    expect(byAdmin.status).toBe(201);
    // the link of an invitation a person made still works
    const accepted = await desk.api("POST", "/v1/invitations/accept", {
      body: { token: tokenOf(byAdmin.body.url), name: "New Admin", password: "long-enough-pw" },
    });
    expect(accepted.status).toBe(201);
  });
});

describe("member role changes and removal", () => {
  test("a key changes roles only between roles it could grant, and never touches admins or owners", async () => {
    const { workspace, owner } = await createWorkspaceWithOwner(desk);
    const viewer = await addMember(desk, workspace.id, "viewer");
    const admin = await addMember(desk, workspace.id, "admin");
    const patch = (headers: Record<string, string>, userId: string, role: string) =>
      desk.api("PATCH", `/v1/members/${userId}`, { headers, body: { role } });
    const settingsKey = await createKey(desk, owner, SETTINGS);
    expect((await patch(settingsKey.headers, viewer.id, "agent")).status).toBe(403);
    const agentKey = await createKey(desk, owner, [...AGENT_REACH, "settings:write"]);
    expect((await patch(agentKey.headers, viewer.id, "agent")).status).toBe(200);
    expect(await roleOf(workspace.id, viewer.id)).toBe("agent");
    expect((await patch(agentKey.headers, viewer.id, "admin")).status).toBe(403);
    expect((await patch(agentKey.headers, admin.id, "viewer")).status).toBe(403);
    expect(await roleOf(workspace.id, admin.id)).toBe("admin");
    const all = await createKey(desk, owner, ALL_SCOPES);
    expect((await patch(all.headers, viewer.id, "admin")).status).toBe(403);
    // a settings key may still demote and remove non-admins: that takes access away
    expect((await patch(settingsKey.headers, viewer.id, "viewer")).status).toBe(200);
    expect((await desk.api("DELETE", `/v1/members/${admin.id}`, { headers: all.headers })).status).toBe(403);
    expect((await desk.api("DELETE", `/v1/members/${viewer.id}`, { headers: settingsKey.headers })).status).toBe(204);
    // people: an admin may make and unmake admins
    const other = await addMember(desk, workspace.id, "agent");
    expect((await patch(admin.headers, other.id, "admin")).status).toBe(200);
    expect((await patch(admin.headers, other.id, "agent")).status).toBe(200);
  });
});

describe("API keys", () => {
  test("a key mints keys only within its scopes and its own expiry, and manages only keys within its scopes", async () => {
    const { workspace, owner } = await createWorkspaceWithOwner(desk);
    const now = Date.now();
    const soon = new Date(now + 3_600_000).toISOString();
    const later = new Date(now + 7_200_000).toISOString();
    const { createApiKey } = await import("../../src/api-keys/api-keys.service");
    const { secret } = await createApiKey(
      owner.ctx,
      { name: "temp", scopes: [...SETTINGS, "tickets:read"], expires_at: soon },
      desk.deps,
    );
    const temp = { authorization: `Bearer ${secret}` };
    const create = (body: Record<string, unknown>) =>
      desk.api("POST", "/v1/api-keys", { headers: temp, body: { name: "child", ...body } });
    expect((await create({ scopes: ["tickets:write"], expires_at: soon })).status).toBe(403);
    expect((await create({ scopes: ["tickets:read"] })).status).toBe(403);
    expect((await create({ scopes: ["tickets:read"], expires_at: later })).status).toBe(403);
    const child = await create({ scopes: ["tickets:read"], expires_at: soon });
    expect(child.status).toBe(201);
    expect(
      (await desk.api("PATCH", `/v1/api-keys/${child.body.id}`, { headers: temp, body: { expires_at: null } })).status,
    ).toBe(403);
    expect(
      (await desk.api("PATCH", `/v1/api-keys/${child.body.id}`, { headers: temp, body: { name: "renamed" } })).status,
    ).toBe(200);
    // a wider key cannot be repointed, extended or revoked by a narrower one
    const wide = await createKey(desk, owner, ALL_SCOPES);
    for (const [method, body] of [
      ["PATCH", { expires_at: later }],
      ["PATCH", { name: "x" }],
      ["DELETE", undefined],
    ] as const) {
      const res = await desk.api(method, `/v1/api-keys/${wide.id}`, { headers: temp, body });
      expect([method, res.status]).toEqual([method, 403]);
    }
    expect(
      first(await desk.deps.db.select().from(apiKeys).where(eq(apiKeys.id, wide.id)).limit(1))!.revokedAt,
    ).toBeNull();
    // an admin person is bounded by nothing here
    const admin = await addMember(desk, workspace.id, "admin");
    expect(
      (await desk.api("POST", "/v1/api-keys", { headers: admin.headers, body: { name: "all", scopes: ALL_SCOPES } }))
        .status,
    ).toBe(201);
  });
});

describe("private teams", () => {
  test("a key without tickets:read cannot put people in a private team or make one public", async () => {
    const { workspace, owner } = await createWorkspaceWithOwner(desk);
    const agent = await addMember(desk, workspace.id, "agent");
    const key = await createKey(desk, owner, SETTINGS);
    const post = (headers: Record<string, string>, body: Record<string, unknown>) =>
      desk.api("POST", "/v1/teams", { headers, body });
    expect((await post(key.headers, { name: "Secret", member_ids: [agent.id], private: true })).status).toBe(403);
    expect((await post(key.headers, { name: "Open", member_ids: [agent.id], private: false })).status).toBe(201);
    const empty = await post(key.headers, { name: "Empty secret", member_ids: [], private: true });
    expect(empty.status).toBe(201);
    expect(
      (
        await desk.api("PATCH", `/v1/teams/${empty.body.id}`, {
          headers: key.headers,
          body: { member_ids: [agent.id] },
        })
      ).status,
    ).toBe(403);
    expect(
      (await desk.api("PATCH", `/v1/teams/${empty.body.id}`, { headers: key.headers, body: { private: false } }))
        .status,
    ).toBe(403);
    expect(
      (await desk.api("PATCH", `/v1/teams/${empty.body.id}`, { headers: key.headers, body: { name: "Renamed" } }))
        .status,
    ).toBe(200);
    const reader = await createKey(desk, owner, [...SETTINGS, "tickets:read"]);
    expect(
      (
        await desk.api("PATCH", `/v1/teams/${empty.body.id}`, {
          headers: reader.headers,
          body: { member_ids: [agent.id] },
        })
      ).status,
    ).toBe(200);
  });
});

describe("webhooks", () => {
  test("a key subscribes an endpoint only to events it may read, grants teams only with tickets:read, and cannot repoint a wider endpoint", async () => {
    const { owner } = await createWorkspaceWithOwner(desk);
    const key = await createKey(desk, owner, SETTINGS);
    const create = (headers: Record<string, string>, body: Record<string, unknown>) =>
      desk.api("POST", "/v1/webhooks", { headers, body: { url: "http://127.0.0.1:9/hook", ...body } });
    expect((await create(key.headers, { events: ["*"] })).status).toBe(403);
    expect((await create(key.headers, { events: ["message.created"] })).status).toBe(403);
    expect((await create(key.headers, { events: ["contact.created"] })).status).toBe(403);
    const own = await create(key.headers, { events: ["member.added", "tag.created"] });
    expect(own.status).toBe(201);
    expect(
      (
        await desk.api("PATCH", `/v1/webhooks/${own.body.id}`, {
          headers: key.headers,
          body: { events: ["ticket.created"] },
        })
      ).status,
    ).toBe(403);
    expect(
      (await desk.api("PATCH", `/v1/webhooks/${own.body.id}`, { headers: key.headers, body: { team_ids: [] } })).status,
    ).toBe(200);
    const team = await desk.api("POST", "/v1/teams", {
      headers: owner.headers,
      body: { name: "Vault", member_ids: [], private: true },
    });
    expect(
      (
        await desk.api("PATCH", `/v1/webhooks/${own.body.id}`, {
          headers: key.headers,
          body: { team_ids: [team.body.id] },
        })
      ).status,
    ).toBe(403);
    const reader = await createKey(desk, owner, [...SETTINGS, "tickets:read"]);
    expect((await create(reader.headers, { events: ["ticket.created"], team_ids: [team.body.id] })).status).toBe(201);
    const byOwner = await create(owner.headers, { events: ["*"] });
    expect(byOwner.status).toBe(201);
    expect(
      (
        await desk.api("PATCH", `/v1/webhooks/${byOwner.body.id}`, {
          headers: key.headers,
          body: { url: "http://127.0.0.1:10/mine" },
        })
      ).status,
    ).toBe(403);
    expect((await desk.api("DELETE", `/v1/webhooks/${byOwner.body.id}`, { headers: key.headers })).status).toBe(403);
    const everything = await createKey(desk, owner, ALL_SCOPES);
    expect(
      (
        await desk.api("PATCH", `/v1/webhooks/${byOwner.body.id}`, {
          headers: everything.headers,
          body: { description: "fine" },
        })
      ).status,
    ).toBe(200);
  });
});
