import { describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { events } from "../events/events.table";
import { startTestDesk, type TestDesk } from "../../test/harness";
import { addMember, createKey, createWorkspaceWithOwner } from "../../test/factories";
import { findVisibleView, listVisibleViews } from "./views.service";
import { lastSeq } from "../../test/kit/events";

const desk: TestDesk = await startTestDesk();
const eventsSince = async (workspaceId: string, seq: number) =>
  (await desk.deps.db.select().from(events).where(eq(events.workspaceId, workspaceId))).filter((e) => e.seq > seq);

describe("views", () => {
  test("personal views are their owner's alone; shared views need an admin", async () => {
    const { workspace, owner } = await createWorkspaceWithOwner(desk);
    const agent = await addMember(desk, workspace.id, "agent");
    const other = await addMember(desk, workspace.id, "agent");
    expect((await desk.api("GET", "/v1/views")).status).toBe(401);
    expect(
      (await desk.api("POST", "/v1/views", { headers: agent.headers, body: { name: "Team", shared: true } })).status,
    ).toBe(403);
    const mine = await desk.api("POST", "/v1/views", {
      headers: agent.headers,
      body: { name: "Mine", filters: { status: ["open"], assignee: "me" } },
    });
    expect(mine.status).toBe(201);
    expect(mine.body).toMatchObject({
      name: "Mine",
      shared: false,
      position: 0,
      filters: { status: ["open"], assignee: "me" },
    });
    const shared = await desk.api("POST", "/v1/views", {
      headers: owner.headers,
      body: { name: "Urgent", shared: true, filters: { priority: ["urgent"] } },
    });
    expect(shared.status).toBe(201);
    expect((await desk.api("GET", `/v1/views/${mine.body.id}`, { headers: other.headers })).status).toBe(404);
    expect(
      (await desk.api("PATCH", `/v1/views/${mine.body.id}`, { headers: other.headers, body: { name: "x" } })).status,
    ).toBe(404);
    expect((await desk.api("DELETE", `/v1/views/${mine.body.id}`, { headers: owner.headers })).status).toBe(404);
    expect(
      (await desk.api("PATCH", `/v1/views/${shared.body.id}`, { headers: agent.headers, body: { name: "x" } })).status,
    ).toBe(403);
    expect(
      (await desk.api("PATCH", `/v1/views/${mine.body.id}`, { headers: agent.headers, body: { shared: true } })).status,
    ).toBe(403);
    const list = (await desk.api("GET", "/v1/views", { headers: other.headers })).body.data.map(
      (v: { name: string }) => v.name,
    );
    expect(list).toEqual(["Urgent"]);
    expect((await listVisibleViews(desk.deps.db, agent.ctx)).map((v) => v.name)).toEqual(["Mine", "Urgent"]);
    expect((await findVisibleView(desk.deps.db, agent.ctx, mine.body.id)).filters).toEqual({
      status: ["open"],
      assignee: "me",
    });
    await expect(findVisibleView(desk.deps.db, other.ctx, mine.body.id)).rejects.toThrow();
    const key = await createKey(desk, owner, ["tickets:read"]);
    expect(
      (await desk.api("GET", "/v1/views", { headers: key.headers })).body.data.map((v: { name: string }) => v.name),
    ).toEqual(["Urgent"]);
    expect((await desk.api("POST", "/v1/views", { headers: key.headers, body: { name: "x" } })).status).toBe(403);
  });

  test("another workspace's views are never visible; a key sees shared views only, even its creator's personal ones", async () => {
    const a = await createWorkspaceWithOwner(desk);
    const b = await createWorkspaceWithOwner(desk);
    const shared = (
      await desk.api("POST", "/v1/views", { headers: a.owner.headers, body: { name: "A shared", shared: true } })
    ).body;
    const personal = (await desk.api("POST", "/v1/views", { headers: a.owner.headers, body: { name: "A personal" } }))
      .body;
    await expect(findVisibleView(desk.deps.db, b.owner.ctx, shared.id)).rejects.toThrow("View");
    expect(await listVisibleViews(desk.deps.db, b.owner.ctx)).toEqual([]);
    expect((await desk.api("GET", `/v1/views/${shared.id}`, { headers: b.owner.headers })).status).toBe(404);
    const keyCtx = { ...a.owner.ctx, actor: { type: "api_key" as const, apiKeyId: "k", createdBy: a.owner.id } };
    expect((await listVisibleViews(desk.deps.db, keyCtx)).map((v) => v.name)).toEqual(["A shared"]);
    await expect(findVisibleView(desk.deps.db, keyCtx, personal.id)).rejects.toThrow("View");
    expect(await findVisibleView(desk.deps.db, a.owner.ctx, personal.id)).toMatchObject({
      id: personal.id,
      shared: false,
      filters: {},
    });
  });

  test("update and delete emit view events", async () => {
    const { workspace, owner } = await createWorkspaceWithOwner(desk);
    const seq = await lastSeq(desk, workspace.id);
    const view = (await desk.api("POST", "/v1/views", { headers: owner.headers, body: { name: "A" } })).body;
    const patched = await desk.api("PATCH", `/v1/views/${view.id}`, {
      headers: owner.headers,
      body: { name: "B", filters: { channel: "email", q: "refund" } },
    });
    expect(patched.body).toMatchObject({ name: "B", filters: { channel: "email", q: "refund" } });
    expect((await desk.api("DELETE", `/v1/views/${view.id}`, { headers: owner.headers })).status).toBe(204);
    const emitted = await eventsSince(workspace.id, seq);
    expect(emitted.map((e) => e.type)).toEqual(["view.created", "view.updated", "view.deleted"]);
    expect(emitted[2]!.data).toEqual({ view_id: view.id });
  });

  test("filters are validated; members, teams and fields must be this workspace's", async () => {
    const a = await createWorkspaceWithOwner(desk);
    const b = await createWorkspaceWithOwner(desk);
    await desk.api("POST", "/v1/custom-fields", {
      headers: a.owner.headers,
      body: { entity: "ticket", name: "Tier", type: "select", options: [{ label: "Gold" }] },
    });
    const ok = await desk.api("POST", "/v1/views", {
      headers: a.owner.headers,
      body: { name: "Gold", filters: { fields: [{ key: "tier", op: "any", value: "gold" }] } },
    });
    expect(ok.status).toBe(201);
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ status: ["opened"] }, "body.filters.status.0"],
      [{ priority: "high" }, "body.filters.priority"],
      [{ channel: "fax" }, "body.filters.channel"],
      [{ assignee: b.owner.id }, "body.filters.assignee"],
      [{ team_id: "nope" }, "body.filters.team_id"],
      [{ mailbox_id: "nope" }, "body.filters.mailbox_id"],
      [{ tag: "bad;tag" }, "body.filters.tag"],
      [{ fields: [{ key: "tier", op: "gt", value: "gold" }] }, "body.filters.fields.0"],
      [{ fields: [{ key: "missing", op: "eq", value: "x" }] }, "body.filters.fields.0"],
      [{ unknown: 1 }, "body.filters"],
    ];
    for (const [filters, location] of cases) {
      const res = await desk.api("POST", "/v1/views", { headers: a.owner.headers, body: { name: "x", filters } });
      expect(res.status).toBe(422);
      expect(res.body.errors[0].location.startsWith(location)).toBe(true);
    }
    expect((await desk.api("POST", "/v1/views", { headers: a.owner.headers, body: { name: "" } })).status).toBe(422);
    expect((await desk.api("GET", `/v1/views/${ok.body.id}`, { headers: b.owner.headers })).status).toBe(404);
    expect(
      (await desk.api("PATCH", `/v1/views/${ok.body.id}`, { headers: b.owner.headers, body: { name: "x" } })).status,
    ).toBe(404);
  });
});
