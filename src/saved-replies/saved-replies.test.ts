import { describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { events } from "../events/events.table";
import { startTestDesk, type TestDesk } from "../../test/harness";
import { addMember, createWorkspaceWithOwner } from "../../test/factories";
import { lastSeq } from "../../test/kit/events";

const desk: TestDesk = await startTestDesk();
const eventsSince = async (workspaceId: string, seq: number) =>
  (await desk.deps.db.select().from(events).where(eq(events.workspaceId, workspaceId))).filter((e) => e.seq > seq);

describe("saved replies", () => {
  test("CRUD with sanitized HTML, unique shortcut, events and tenancy", async () => {
    const { workspace, owner } = await createWorkspaceWithOwner(desk);
    const viewer = await addMember(desk, workspace.id, "viewer");
    const seq = await lastSeq(desk, workspace.id);
    const created = await desk.api("POST", "/v1/saved-replies", {
      headers: owner.headers,
      body: { title: "Thanks", shortcut: "thx", body_html: '<p onclick="x()">Thank you<script>alert(1)</script></p>' },
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ title: "Thanks", shortcut: "thx", body_html: "<p>Thank you</p>" });
    expect(
      (
        await desk.api("POST", "/v1/saved-replies", {
          headers: owner.headers,
          body: { title: "Dup", shortcut: "THX", body_html: "<p>x</p>" },
        })
      ).status,
    ).toBe(409);
    expect(
      (
        await desk.api("POST", "/v1/saved-replies", {
          headers: owner.headers,
          body: { title: "Bad", shortcut: "has space", body_html: "<p>x</p>" },
        })
      ).status,
    ).toBe(422);
    expect(
      (
        await desk.api("POST", "/v1/saved-replies", {
          headers: owner.headers,
          body: { title: "Empty", body_html: "<script>x</script>" },
        })
      ).status,
    ).toBe(422);
    expect(
      (
        await desk.api("POST", "/v1/saved-replies", {
          headers: viewer.headers,
          body: { title: "V", body_html: "<p>x</p>" },
        })
      ).status,
    ).toBe(403);
    expect((await desk.api("GET", "/v1/saved-replies", { headers: viewer.headers })).body.data.length).toBe(1);
    const patched = await desk.api("PATCH", `/v1/saved-replies/${created.body.id}`, {
      headers: owner.headers,
      body: { shortcut: null },
    });
    expect(patched.body.shortcut).toBeNull();
    const b = await createWorkspaceWithOwner(desk);
    for (const [method, body] of [
      ["GET", undefined],
      ["PATCH", { title: "x" }],
      ["DELETE", undefined],
    ] as const) {
      expect(
        (await desk.api(method, `/v1/saved-replies/${created.body.id}`, { headers: b.owner.headers, body })).status,
      ).toBe(404);
    }
    expect(
      (
        await desk.api("POST", "/v1/saved-replies", {
          headers: b.owner.headers,
          body: { title: "Thanks", shortcut: "thx", body_html: "<p>x</p>" },
        })
      ).status,
    ).toBe(201);
    expect((await desk.api("DELETE", `/v1/saved-replies/${created.body.id}`, { headers: owner.headers })).status).toBe(
      204,
    );
    expect((await eventsSince(workspace.id, seq)).map((e) => e.type)).toEqual([
      "saved_reply.created",
      "saved_reply.updated",
      "saved_reply.deleted",
    ]);
  });
});
