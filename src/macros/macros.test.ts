import { describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { auditLogs } from "../audit/audit.table";
import { messages } from "../tickets/messages.table";
import { activities } from "../tickets/tickets.table";
import { addMember, createKey, createWorkspaceWithOwner } from "../../test/factories";
import { startTestDesk, type TestDesk } from "../../test/harness";
import { eventsAfter, newField, newTicket } from "../../test/kit/tickets";
import { macros } from "./macros.table";
import { lastSeq } from "../../test/kit/events";

const desk: TestDesk = await startTestDesk();

const stored = async (workspaceId: string) =>
  await desk.deps.db.select().from(macros).where(eq(macros.workspaceId, workspaceId));
const auditActions = async (workspaceId: string) =>
  (
    await desk.deps.db
      .select({ action: auditLogs.action })
      .from(auditLogs)
      .where(eq(auditLogs.workspaceId, workspaceId))
  )
    .map((r) => r.action)
    .filter((a) => a.startsWith("macro."));

const simple = { name: "Close politely", actions: [{ type: "set_status", value: "solved" }] };

describe("macros: access", () => {
  test("401 without a credential; 403 for viewers, scopes and agents' shared macros; any agent makes personal ones", async () => {
    const { workspace, owner } = await createWorkspaceWithOwner(desk);
    expect((await desk.api("GET", "/v1/macros")).status).toBe(401);
    expect((await desk.api("POST", "/v1/macros", { body: simple })).status).toBe(401);
    const viewer = await addMember(desk, workspace.id, "viewer");
    expect((await desk.api("GET", "/v1/macros", { headers: viewer.headers })).status).toBe(200);
    expect((await desk.api("POST", "/v1/macros", { headers: viewer.headers, body: simple })).status).toBe(403);
    const agent = await addMember(desk, workspace.id, "agent");
    const shared = await desk.api("POST", "/v1/macros", { headers: agent.headers, body: { ...simple, shared: true } });
    expect(shared.status).toBe(403);
    const mine = await desk.api("POST", "/v1/macros", { headers: agent.headers, body: simple });
    expect(mine.status).toBe(201);
    expect(mine.body.shared).toBe(false);
    const readKey = await createKey(desk, owner, ["tickets:read"]);
    expect((await desk.api("GET", "/v1/macros", { headers: readKey.headers })).status).toBe(200);
    expect((await desk.api("POST", "/v1/macros", { headers: readKey.headers, body: simple })).status).toBe(403);
    const noRead = await createKey(desk, owner, ["settings:write"]);
    expect((await desk.api("GET", "/v1/macros", { headers: noRead.headers })).status).toBe(403);
    const settingsKey = await createKey(desk, owner, ["settings:write", "tickets:read"]);
    const byKey = await desk.api("POST", "/v1/macros", {
      headers: settingsKey.headers,
      body: { ...simple, shared: true },
    });
    expect(byKey.status).toBe(201);
    // The agent cannot change or delete a shared macro, nor share their own.
    expect(
      (await desk.api("PATCH", `/v1/macros/${byKey.body.id}`, { headers: agent.headers, body: { name: "x" } })).status,
    ).toBe(403);
    expect((await desk.api("DELETE", `/v1/macros/${byKey.body.id}`, { headers: agent.headers })).status).toBe(403);
    expect(
      (await desk.api("PATCH", `/v1/macros/${mine.body.id}`, { headers: agent.headers, body: { shared: true } }))
        .status,
    ).toBe(403);
  });

  test("another person's personal macro and another workspace's macro answer 404 everywhere", async () => {
    const { workspace, owner } = await createWorkspaceWithOwner(desk);
    const agent = await addMember(desk, workspace.id, "agent");
    const other = await createWorkspaceWithOwner(desk);
    const personal = (await desk.api("POST", "/v1/macros", { headers: agent.headers, body: simple })).body;
    const foreign = (await desk.api("POST", "/v1/macros", { headers: other.owner.headers, body: simple })).body;
    const ticket = await newTicket(desk, owner);
    for (const id of [personal.id, foreign.id]) {
      expect((await desk.api("GET", `/v1/macros/${id}`, { headers: owner.headers })).status).toBe(404);
      expect(
        (await desk.api("PATCH", `/v1/macros/${id}`, { headers: owner.headers, body: { name: "x" } })).status,
      ).toBe(404);
      expect((await desk.api("DELETE", `/v1/macros/${id}`, { headers: owner.headers })).status).toBe(404);
      expect((await desk.api("POST", `/v1/tickets/${ticket.id}/macros/${id}`, { headers: owner.headers })).status).toBe(
        404,
      );
    }
    expect(
      (await desk.api("GET", "/v1/macros", { headers: owner.headers })).body.data.map((m: { id: string }) => m.id),
    ).toEqual([]);
    expect(
      (await desk.api("GET", "/v1/macros", { headers: agent.headers })).body.data.map((m: { id: string }) => m.id),
    ).toEqual([personal.id]);
    // Another workspace's ticket is 404 too, even with a usable macro.
    const otherTicket = await newTicket(desk, other.owner);
    expect(
      (await desk.api("POST", `/v1/tickets/${otherTicket.id}/macros/${personal.id}`, { headers: agent.headers }))
        .status,
    ).toBe(404);
    // Viewers and keys without tickets:write do not apply macros.
    const viewer = await addMember(desk, workspace.id, "viewer");
    const shared = (await desk.api("POST", "/v1/macros", { headers: owner.headers, body: { ...simple, shared: true } }))
      .body;
    expect(
      (await desk.api("POST", `/v1/tickets/${ticket.id}/macros/${shared.id}`, { headers: viewer.headers })).status,
    ).toBe(403);
    const readKey = await createKey(desk, owner, ["tickets:read"]);
    expect(
      (await desk.api("POST", `/v1/tickets/${ticket.id}/macros/${shared.id}`, { headers: readKey.headers })).status,
    ).toBe(403);
  });
});

describe("macros: validated at save", () => {
  test("422 with the location: unknown members, unknown or archived labels, fields, placeholders, ai_triage", async () => {
    const { workspace, owner } = await createWorkspaceWithOwner(desk);
    await desk.api("POST", "/v1/tags", { headers: owner.headers, body: { name: "old" } });
    const old = (await desk.api("GET", "/v1/tags", { headers: owner.headers })).body.data.find(
      (t: { name: string }) => t.name === "old",
    );
    await desk.api("PATCH", `/v1/tags/${old.id}`, { headers: owner.headers, body: { archived: true } });
    const cases: Array<[unknown, string]> = [
      [[{ type: "add_tag", value: "nope" }], "body.actions.0.value"],
      [
        [
          { type: "set_status", value: "open" },
          { type: "remove_tag", value: "old" },
        ],
        "body.actions.1.value",
      ],
      [[{ type: "set_field", field: "missing", value: "1" }], "body.actions.0.field"],
      [[{ type: "assign_user", value: "nobody" }], "body.actions.0.value"],
      [[{ type: "send_reply", value: "<p>Hi {{contact.nickname}}</p>" }], "body.actions.0.value"],
      [[{ type: "add_note", value: "<p>Hi {{contact.name</p>" }], "body.actions.0.value"],
      [[{ type: "ai_triage", value: "" }], "body.actions.0.type"],
      [[{ type: "set_status", value: "open", extra: 1 }], "body.actions.0"],
    ];
    for (const [actions, location] of cases) {
      const res = await desk.api("POST", "/v1/macros", { headers: owner.headers, body: { name: "Bad", actions } });
      expect(res.status).toBe(422);
      expect(res.body.errors.map((e: { location: string }) => e.location)).toContain(location);
    }
    const unknown = await desk.api("POST", "/v1/macros", { headers: owner.headers, body: { ...simple, color: "red" } });
    expect(unknown.status).toBe(422);
    expect(await stored(workspace.id)).toEqual([]);
  });
});

describe("macros: CRUD and apply", () => {
  test("create, list, change, delete: stored rows, exact events and audit entries", async () => {
    const { workspace, owner } = await createWorkspaceWithOwner(desk);
    await desk.api("POST", "/v1/tags", { headers: owner.headers, body: { name: "Billing" } });
    const seq = await lastSeq(desk, workspace.id);
    const created = await desk.api("POST", "/v1/macros", {
      headers: owner.headers,
      body: {
        name: "Refund",
        description: "Refund answer",
        shared: true,
        actions: [
          { type: "add_tag", value: "billing" },
          { type: "send_reply", value: '<p onclick="x()">Hi {{contact.first_name}}<script>1</script></p>' },
        ],
      },
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      name: "Refund",
      description: "Refund answer",
      shared: true,
      position: 0,
      usage_count: 0,
      actions: [
        { type: "add_tag", value: "billing" },
        { type: "send_reply", value: "<p>Hi {{contact.first_name}}</p>" },
      ],
    });
    const [row] = await stored(workspace.id);
    expect(row).toMatchObject({ name: "Refund", shared: true, ownerId: owner.id, usageCount: 0 });
    const patched = await desk.api("PATCH", `/v1/macros/${created.body.id}`, {
      headers: owner.headers,
      body: { name: "Refund v2", actions: [{ type: "set_priority", value: "high" }] },
    });
    expect(patched.status).toBe(200);
    expect((await stored(workspace.id))[0]).toMatchObject({
      name: "Refund v2",
      actions: [{ type: "set_priority", value: "high" }],
    });
    expect((await desk.api("DELETE", `/v1/macros/${created.body.id}`, { headers: owner.headers })).status).toBe(204);
    expect(await stored(workspace.id)).toEqual([]);
    const evs = (await eventsAfter(desk, workspace.id, seq)).filter((e) => e.type.startsWith("macro."));
    expect(evs.map((e) => e.type)).toEqual(["macro.created", "macro.updated", "macro.deleted"]);
    expect(evs[2]!.data).toEqual({ macro_id: created.body.id });
    expect(await auditActions(workspace.id)).toEqual(["macro.created", "macro.updated", "macro.deleted"]);
  });

  test("apply as the person: one ticket.updated, their reply with placeholders filled and escaped, usage counted", async () => {
    const { workspace, owner } = await createWorkspaceWithOwner(desk);
    const agent = await addMember(desk, workspace.id, "agent", { name: "Sam Agent" });
    await desk.api("POST", "/v1/tags", { headers: owner.headers, body: { name: "refund" } });
    const field = await newField(desk, owner, { key: "order", name: "Order", type: "text" });
    const macro = (
      await desk.api("POST", "/v1/macros", {
        headers: agent.headers,
        body: {
          name: "Refund",
          actions: [
            { type: "set_priority", value: "high" },
            { type: "add_tag", value: "refund" },
            { type: "assign_user", value: agent.id },
            { type: "set_field", field: field.key, value: "A-1" },
            { type: "add_note", value: "<p>Refund for #{{ticket.number}}</p>" },
            { type: "send_reply", value: "<p>Hello {{contact.first_name}}, {{agent.first_name}} here.</p>" },
          ],
        },
      })
    ).body;
    const ticket = await newTicket(desk, owner, {
      contact: { email: "eve@example.com", name: "<b>Eve</b> Smith" },
      body_text: "Refund please",
    });
    const seq = await lastSeq(desk, workspace.id);
    const res = await desk.api("POST", `/v1/tickets/${ticket.id}/macros/${macro.id}`, { headers: agent.headers });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id: ticket.id,
      priority: "high",
      assignee: { id: agent.id },
      fields: { order: "A-1" },
      tags: [{ name: "refund" }],
    });
    const evs = await eventsAfter(desk, workspace.id, seq);
    const types = evs.map((e) => e.type);
    // The actions' changes are one update; the messages then move the ticket by its own rules.
    const first = evs.find((e) => e.type === "ticket.updated")!.data as { changes: string[] };
    expect(first.changes.sort()).toEqual(["assignee", "fields", "priority", "tags"]);
    expect(types.filter((t) => t === "message.created").length).toBe(2);
    expect(types.some((t) => t.startsWith("macro."))).toBe(false);
    const written = await desk.deps.db.select().from(messages).where(eq(messages.ticketId, ticket.id));
    const reply = written.find((m) => m.kind === "reply" && m.authorUserId === agent.id)!;
    expect(reply.authorType).toBe("user");
    expect(reply.bodyHtml).toBe("<p>Hello &lt;b&gt;Eve&lt;/b&gt;, Sam here.</p>");
    const note = written.find((m) => m.kind === "note")!;
    expect(note.bodyHtml).toBe(`<p>Refund for #${ticket.number}</p>`);
    const acts = await desk.deps.db.select().from(activities).where(eq(activities.ticketId, ticket.id));
    expect(acts.filter((a) => a.type === "priority_changed").map((a) => [a.actorType, a.actorUserId])).toEqual([
      ["user", agent.id],
    ]);
    expect((await stored(workspace.id))[0]!.usageCount).toBe(1);
    expect((await desk.api("GET", `/v1/macros/${macro.id}`, { headers: agent.headers })).body.usage_count).toBe(1);
  });

  test("a placeholder without a value refuses the whole macro with 422 and changes nothing", async () => {
    const { workspace, owner } = await createWorkspaceWithOwner(desk);
    const macro = (
      await desk.api("POST", "/v1/macros", {
        headers: owner.headers,
        body: {
          name: "Greet",
          actions: [
            { type: "set_priority", value: "urgent" },
            { type: "send_reply", value: "<p>Hi {{contact.last_name}}</p>" },
          ],
        },
      })
    ).body;
    const ticket = await newTicket(desk, owner, { contact: { email: "solo@example.com", name: "Solo" } });
    const seq = await lastSeq(desk, workspace.id);
    const res = await desk.api("POST", `/v1/tickets/${ticket.id}/macros/${macro.id}`, { headers: owner.headers });
    expect(res.status).toBe(422);
    expect(res.body.errors[0].location).toBe("path.macro_id");
    expect(await eventsAfter(desk, workspace.id, seq)).toEqual([]);
    expect((await stored(workspace.id))[0]!.usageCount).toBe(0);
  });
});
