import { describe, expect, test } from "bun:test";
import { startTestDesk } from "../../test/harness";
import { addMember, createKey, createWorkspaceWithOwner } from "../../test/factories";
import { anyEvent } from "../../test/kit/events";
import { transact } from "../db/tx";
import { appendEvent } from "../events/append";
import { sql } from "drizzle-orm";
import { execute } from "../db/store";

const desk = await startTestDesk({ env: { DESK_JOBS: "off" } });

/** Keys and memberships are served from memory; every change that withdraws access applies to the very next request. */
describe("cached credentials", () => {
  test("a revoked API key answers 401 on the next request", async () => {
    const { owner } = await createWorkspaceWithOwner(desk);
    const key = await createKey(desk, owner, ["settings:read", "tickets:read"]);
    for (let i = 0; i < 3; i++) expect((await desk.api("GET", "/v1/me", { headers: key.headers })).status).toBe(200);
    expect((await desk.api("DELETE", `/v1/api-keys/${key.id}`, { headers: owner.headers })).status).toBe(204);
    expect((await desk.api("GET", "/v1/me", { headers: key.headers })).status).toBe(401);
    expect((await desk.api("GET", "/v1/tickets", { headers: key.headers })).status).toBe(401);
  });

  test("a key's narrowed scopes apply on the next request", async () => {
    const { owner } = await createWorkspaceWithOwner(desk);
    const key = await createKey(desk, owner, ["tickets:read", "contacts:read"]);
    expect((await desk.api("GET", "/v1/tickets", { headers: key.headers })).status).toBe(200);
    const patched = await desk.api("PATCH", `/v1/api-keys/${key.id}`, {
      headers: owner.headers,
      body: { scopes: ["contacts:read"] },
    });
    expect(patched.status).toBe(200);
    expect((await desk.api("GET", "/v1/tickets", { headers: key.headers })).status).toBe(403);
  });

  test("a demoted member loses admin routes at once; a removed one loses the workspace", async () => {
    const { workspace, owner } = await createWorkspaceWithOwner(desk);
    const admin = await addMember(desk, workspace.id, "admin");
    expect((await desk.api("GET", "/v1/api-keys", { headers: admin.headers })).status).toBe(200);
    expect(
      (await desk.api("PATCH", `/v1/members/${admin.id}`, { headers: owner.headers, body: { role: "agent" } })).status,
    ).toBe(200);
    expect((await desk.api("GET", "/v1/api-keys", { headers: admin.headers })).status).toBe(403);
    expect((await desk.api("GET", "/v1/tickets", { headers: admin.headers })).status).toBe(200);
    expect((await desk.api("DELETE", `/v1/members/${admin.id}`, { headers: owner.headers })).status).toBe(204);
    expect((await desk.api("GET", "/v1/tickets", { headers: admin.headers })).status).toBe(404);
  });

  test("a member, team or workspace event empties the membership cache in its transaction (each module's hook)", async () => {
    const { workspace } = await createWorkspaceWithOwner(desk);
    const admin = await addMember(desk, workspace.id, "admin");
    const roleNow = async () =>
      (await desk.deps.credentials.workspaceContext(new Request(`${desk.url}/v1/me`, { headers: admin.headers }), {}))
        .role;
    // Changed behind the features' backs: no signal and no event, so only the event appended next tells.
    const setRole = async (role: string) =>
      await execute(
        desk.deps.db,
        sql`UPDATE members SET role = ${role} WHERE workspace_id = ${workspace.id} AND user_id = ${admin.id}`,
      );
    let role: "admin" | "agent" = "admin";
    for (const type of ["member.updated", "team.updated", "workspace.updated"]) {
      const before = await roleNow();
      role = role === "admin" ? "agent" : "admin";
      await setRole(role);
      expect(await roleNow()).toBe(before);
      await transact(
        desk.deps.db,
        async (tx) => await appendEvent(tx, anyEvent(type), { workspaceId: workspace.id, data: {} }),
      );
      expect({ type, role: await roleNow() }).toEqual({ type, role });
    }
  });

  test("leaving a private team hides its tickets on the next request", async () => {
    const { workspace, owner } = await createWorkspaceWithOwner(desk);
    const agent = await addMember(desk, workspace.id, "agent");
    const team = await desk.api("POST", "/v1/teams", {
      headers: owner.headers,
      body: { name: "Secret", private: true, member_ids: [agent.id] },
    });
    expect(team.status).toBe(201);
    const ticket = await desk.api("POST", "/v1/tickets", {
      headers: owner.headers,
      body: { subject: "Private", contact: { email: "p@example.com" }, team_id: team.body.id },
    });
    expect(ticket.status).toBe(201);
    expect((await desk.api("GET", `/v1/tickets/${ticket.body.id}`, { headers: agent.headers })).status).toBe(200);
    expect(
      (await desk.api("PATCH", `/v1/teams/${team.body.id}`, { headers: owner.headers, body: { member_ids: [] } }))
        .status,
    ).toBe(200);
    expect((await desk.api("GET", `/v1/tickets/${ticket.body.id}`, { headers: agent.headers })).status).toBe(404);
    // And joining shows them at once too.
    expect(
      (
        await desk.api("PATCH", `/v1/teams/${team.body.id}`, {
          headers: owner.headers,
          body: { member_ids: [agent.id] },
        })
      ).status,
    ).toBe(200);
    expect((await desk.api("GET", `/v1/tickets/${ticket.body.id}`, { headers: agent.headers })).status).toBe(200);
  });
});
