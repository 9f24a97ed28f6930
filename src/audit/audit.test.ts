import { describe, expect, test } from "bun:test";
import { transact } from "../db/tx";
import { recordAudit } from "./audit.service";
import { startTestDesk } from "../../test/harness";
import { addMember, createKey, createWorkspaceWithOwner } from "../../test/factories";

const desk = await startTestDesk();

describe("GET /v1/audit-logs", () => {
  test("access: none 401, agent 403, key without settings:read 403; only this workspace's entries", async () => {
    const { workspace, owner } = await createWorkspaceWithOwner(desk);
    const other = await createWorkspaceWithOwner(desk);
    await desk.api("PATCH", "/v1/workspace", { headers: other.owner.headers, body: { name: "Other renamed" } });
    const agent = await addMember(desk, workspace.id, "agent");
    expect((await desk.api("GET", "/v1/audit-logs")).status).toBe(401);
    expect((await desk.api("GET", "/v1/audit-logs", { headers: agent.headers })).status).toBe(403);
    expect(
      (await desk.api("GET", "/v1/audit-logs", { headers: (await createKey(desk, owner, ["tickets:read"])).headers }))
        .status,
    ).toBe(403);
    expect(
      (await desk.api("GET", "/v1/audit-logs", { headers: { ...owner.headers, "desk-workspace": other.workspace.id } }))
        .status,
    ).toBe(404);
    const res = await desk.api("GET", "/v1/audit-logs", {
      headers: (await createKey(desk, owner, ["settings:read"])).headers,
    });
    expect(res.status).toBe(200);
    expect(res.body.data.every((e: { action: string }) => e.action === "api_key.created")).toBe(true);
  });

  test("bad filters answer 422", async () => {
    const { owner } = await createWorkspaceWithOwner(desk);
    for (const q of ["from=yesterday", "to=1", "limit=500", "cursor=garbage", "unknown=1"]) {
      const res = await desk.api("GET", `/v1/audit-logs?${q}`, { headers: owner.headers });
      expect(res.status, q).toBe(422);
    }
  });

  test("AuditLog shape, newest first, keyset pages and filters", async () => {
    const { workspace, owner } = await createWorkspaceWithOwner(desk);
    const key = await createKey(desk, owner, ["settings:read", "settings:write"]);
    await desk.api("PATCH", "/v1/workspace", { headers: owner.headers, body: { name: "First" } });
    await desk.api("PATCH", "/v1/workspace", { headers: key.headers, body: { name: "Second" } });
    const team = await desk.api("POST", "/v1/teams", { headers: owner.headers, body: { name: "Ops" } });
    await transact(
      desk.deps.db,
      async (tx) =>
        await recordAudit(
          tx,
          { ...owner.ctx, actor: { type: "api_key", apiKeyId: "system", createdBy: null } },
          { action: "system.note", entityType: "workspace" },
        ),
    );

    const all = await desk.api("GET", "/v1/audit-logs", { headers: owner.headers });
    expect(all.body.data.map((e: { action: string }) => e.action)).toEqual([
      "system.note",
      "team.created",
      "workspace.updated",
      "workspace.updated",
      "api_key.created",
    ]);
    const byKey = all.body.data[2];
    expect(byKey).toEqual({
      id: expect.any(String),
      actor: { type: "api_key", user: null, api_key_id: key.id },
      action: "workspace.updated",
      entity_type: "workspace",
      entity_id: workspace.id,
      data: expect.objectContaining({ changes: ["name"] }),
      ip: null,
      created_at: expect.any(String),
    });
    expect(all.body.data[3].actor).toEqual({
      type: "user",
      user: { id: owner.id, name: owner.name, email: owner.email, avatar_url: null },
      api_key_id: null,
    });
    expect(all.body.data[0].actor).toEqual({ type: "system", user: null, api_key_id: null });

    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: { body: { data: Array<{ id: string }>; next_cursor: string | null } } = await desk.api(
        "GET",
        `/v1/audit-logs?limit=2${cursor ? `&cursor=${cursor}` : ""}`,
        { headers: owner.headers },
      );
      seen.push(...page.body.data.map((e) => e.id));
      cursor = page.body.next_cursor;
    } while (cursor);
    expect(seen).toEqual(all.body.data.map((e: { id: string }) => e.id));

    const filter = async (q: string) =>
      (await desk.api("GET", `/v1/audit-logs?${q}`, { headers: owner.headers })).body.data.map(
        (e: { action: string }) => e.action,
      );
    expect(await filter("action=workspace.updated")).toEqual(["workspace.updated", "workspace.updated"]);
    expect(await filter("entity_type=team")).toEqual(["team.created"]);
    expect(await filter(`entity_id=${team.body.id}`)).toEqual(["team.created"]);
    expect(await filter(`actor_user_id=${owner.id}`)).toEqual(["team.created", "workspace.updated", "api_key.created"]);
    expect(await filter("from=2999-01-01T00:00:00Z")).toEqual([]);
    expect(await filter("to=2000-01-01T00:00:00%2B02:00")).toEqual([]);
    expect((await filter(`from=${encodeURIComponent(all.body.data[1].created_at)}`)).length).toBeGreaterThanOrEqual(2);
  });
});
