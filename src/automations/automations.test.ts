import { describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { auditLogs } from "../audit/audit.table";
import { addMember, createKey, createWorkspaceWithOwner } from "../../test/factories";
import { startTestDesk, type TestDesk } from "../../test/harness";
import { eventsAfter, newField, newTeam } from "../../test/kit/tickets";
import { automations } from "./automations.table";
import { lastSeq } from "../../test/kit/events";

const desk: TestDesk = await startTestDesk();

const auditActions = async (workspaceId: string) =>
  (
    await desk.deps.db
      .select({ action: auditLogs.action })
      .from(auditLogs)
      .where(eq(auditLogs.workspaceId, workspaceId))
  )
    .map((r) => r.action)
    .filter((a) => a.startsWith("automation."));

const stored = async (workspaceId: string) =>
  await desk.deps.db.select().from(automations).where(eq(automations.workspaceId, workspaceId));

const simple = { name: "Urgent VIP", trigger: "ticket_created", actions: [{ type: "set_priority", value: "urgent" }] };

describe("automations CRUD", () => {
  test("401 without a credential; 403 for agents, viewers and keys lacking a settings scope", async () => {
    const { workspace, owner } = await createWorkspaceWithOwner(desk);
    expect((await desk.api("GET", "/v1/automations")).status).toBe(401);
    expect((await desk.api("POST", "/v1/automations", { body: simple })).status).toBe(401);
    for (const role of ["agent", "viewer"] as const) {
      const member = await addMember(desk, workspace.id, role);
      expect((await desk.api("GET", "/v1/automations", { headers: member.headers })).status).toBe(403);
      expect((await desk.api("POST", "/v1/automations", { headers: member.headers, body: simple })).status).toBe(403);
    }
    const readOnly = await createKey(desk, owner, ["settings:read", "tickets:read"]);
    expect((await desk.api("GET", "/v1/automations", { headers: readOnly.headers })).status).toBe(403);
    const settings = await createKey(desk, owner, ["settings:read", "settings:write"]);
    expect((await desk.api("POST", "/v1/automations", { headers: settings.headers, body: simple })).status).toBe(201);
    expect((await desk.api("GET", "/v1/automations", { headers: settings.headers })).body.data.length).toBe(1);
  });

  test("create, list by position, read, change, delete: stored rows, events and audit entries", async () => {
    const { workspace, owner } = await createWorkspaceWithOwner(desk);
    const seq = await lastSeq(desk, workspace.id);
    const first = await desk.api("POST", "/v1/automations", {
      headers: owner.headers,
      body: {
        name: "Billing to finance",
        trigger: "customer_replied",
        conditions: [
          { field: "subject", op: "contains", value: "invoice" },
          { field: "tag", op: "equals", value: "  VIP   customer " },
        ],
        actions: [
          { type: "add_tag", value: "billing" },
          { type: "add_note", value: '<p onclick="x()">Routed<script>alert(1)</script></p>' },
        ],
      },
    });
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({
      name: "Billing to finance",
      trigger: "customer_replied",
      enabled: true,
      position: 0,
      run_count: 0,
      last_run_at: null,
      conditions: [
        { field: "subject", op: "contains", value: "invoice" },
        { field: "tag", op: "equals", value: "VIP customer" },
      ],
      actions: [
        { type: "add_tag", value: "billing" },
        { type: "add_note", value: "<p>Routed</p>" },
      ],
    });
    const second = await desk.api("POST", "/v1/automations", {
      headers: owner.headers,
      body: { ...simple, enabled: false },
    });
    expect(second.body.position).toBe(1);
    const moved = await desk.api("PATCH", `/v1/automations/${second.body.id}`, {
      headers: owner.headers,
      body: { position: 0, name: "Renamed", enabled: true },
    });
    expect(moved.status).toBe(200);
    expect(moved.body).toMatchObject({ position: 0, name: "Renamed", enabled: true, trigger: "ticket_created" });
    await desk.api("PATCH", `/v1/automations/${first.body.id}`, { headers: owner.headers, body: { position: 1 } });
    const list = await desk.api("GET", "/v1/automations", { headers: owner.headers });
    expect(list.body.data.map((a: { id: string }) => a.id)).toEqual([second.body.id, first.body.id]);
    expect(list.body.next_cursor).toBeNull();
    const one = await desk.api("GET", `/v1/automations/${first.body.id}`, { headers: owner.headers });
    expect(one.body).toEqual({ ...first.body, position: 1, updated_at: one.body.updated_at });
    expect(
      (await desk.api("GET", `/v1/automations/${first.body.id}/runs`, { headers: owner.headers })).body.data,
    ).toEqual([]);
    expect((await desk.api("DELETE", `/v1/automations/${first.body.id}`, { headers: owner.headers })).status).toBe(204);
    expect((await desk.api("GET", `/v1/automations/${first.body.id}`, { headers: owner.headers })).status).toBe(404);
    expect((await stored(workspace.id)).map((r) => r.id)).toEqual([second.body.id]);
    const events = await eventsAfter(desk, workspace.id, seq);
    expect(events.map((e) => e.type)).toEqual([
      "automation.created",
      "automation.created",
      "automation.updated",
      "automation.updated",
      "automation.deleted",
    ]);
    expect(events[0]!.data).toEqual({ automation: first.body });
    expect(events[4]!.data).toEqual({ automation_id: first.body.id });
    expect(await auditActions(workspace.id)).toEqual([
      "automation.created",
      "automation.created",
      "automation.updated",
      "automation.updated",
      "automation.deleted",
    ]);
  });

  test("another workspace's automation answers 404 exactly like a missing one", async () => {
    const a = await createWorkspaceWithOwner(desk);
    const b = await createWorkspaceWithOwner(desk);
    const created = await desk.api("POST", "/v1/automations", { headers: a.owner.headers, body: simple });
    for (const id of [created.body.id, "0190aaaa-0000-7000-8000-000000000000"]) {
      for (const [method, path, body] of [
        ["GET", `/v1/automations/${id}`, undefined],
        ["GET", `/v1/automations/${id}/runs`, undefined],
        ["PATCH", `/v1/automations/${id}`, { name: "x" }],
        ["DELETE", `/v1/automations/${id}`, undefined],
      ] as const) {
        const res = await desk.api(method, path, { headers: b.owner.headers, body });
        expect(res.status).toBe(404);
        expect(res.body.code).toBe("not_found");
      }
    }
    expect((await desk.api("GET", "/v1/automations", { headers: b.owner.headers })).body.data).toEqual([]);
    expect((await stored(a.workspace.id))[0]!.name).toBe("Urgent VIP");
  });

  test("422 located at the condition or action index, and nothing stored", async () => {
    const { workspace, owner } = await createWorkspaceWithOwner(desk);
    const other = await createWorkspaceWithOwner(desk);
    const viewer = await addMember(desk, workspace.id, "viewer");
    const otherTeam = await newTeam(desk, other.owner, { name: "Elsewhere" });
    await newField(desk, owner, { name: "Plan", key: "plan", type: "select", options: [{ label: "Gold" }] });
    await newField(desk, owner, { name: "Seats", key: "seats", type: "number" });
    const archived = await newField(desk, owner, { name: "Old", key: "old", type: "text" });
    await desk.api("PATCH", `/v1/custom-fields/${archived.id}`, { headers: owner.headers, body: { archived: true } });
    const seq = await lastSeq(desk, workspace.id);
    const ok = { field: "subject", op: "contains", value: "x" };
    const ai = (value: unknown, question = "Is the customer angry?") => ({
      field: "ai_decide",
      op: "gt",
      value,
      question,
    });
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ ...simple, trigger: "ticket_deleted" }, "body.trigger"],
      [{ ...simple, name: "" }, "body.name"],
      [{ ...simple, actions: [] }, "body.actions"],
      [{ ...simple, conditions: [ok, { field: "colour", op: "equals", value: "x" }] }, "body.conditions.1.field"],
      [{ ...simple, conditions: [ok, { field: "priority", op: "contains", value: "high" }] }, "body.conditions.1.op"],
      [{ ...simple, conditions: [ok, { field: "priority", op: "equals", value: "huge" }] }, "body.conditions.1.value"],
      [{ ...simple, conditions: [{ field: "severity", op: "equals", value: "sev9" }] }, "body.conditions.0.value"],
      [{ ...simple, conditions: [{ field: "status", op: "equals", value: "gone" }] }, "body.conditions.0.value"],
      [{ ...simple, conditions: [{ field: "channel", op: "equals", value: "fax" }] }, "body.conditions.0.value"],
      [{ ...simple, conditions: [{ field: "mailbox_id", op: "equals", value: "nope" }] }, "body.conditions.0.value"],
      [{ ...simple, conditions: [{ field: "subject", op: "equals", value: " " }] }, "body.conditions.0.value"],
      [{ ...simple, conditions: [{ field: "tag", op: "equals", value: "bad<tag>" }] }, "body.conditions.0.value"],
      [{ ...simple, conditions: [{ ...ok, question: "why?" }] }, "body.conditions.0.question"],
      [{ ...simple, conditions: [ok, ai(0.995)] }, "body.conditions.1.value"],
      [{ ...simple, conditions: [ai(0)] }, "body.conditions.0.value"],
      [{ ...simple, conditions: [{ ...ai(0.5), op: "equals" }] }, "body.conditions.0.op"],
      [{ ...simple, conditions: [ai(0.5, "no")] }, "body.conditions.0.question"],
      [{ ...simple, conditions: [ai(0.5, "x".repeat(301))] }, "body.conditions.0.question"],
      [{ ...simple, conditions: [ai(0.5, "<b>is it?</b>")] }, "body.conditions.0.question"],
      [{ ...simple, conditions: [ai(0.5), ai(0.6), ai(0.7), ai(0.8)] }, "body.conditions"],
      [{ ...simple, conditions: [{ field: "field.nope", op: "equals", value: "x" }] }, "body.conditions.0.field"],
      [{ ...simple, conditions: [{ field: "field.plan", op: "gt", value: "gold" }] }, "body.conditions.0.op"],
      [{ ...simple, conditions: [{ field: "field.plan", op: "equals", value: "silver" }] }, "body.conditions.0.value"],
      [{ ...simple, conditions: [{ field: "field.seats", op: "gt", value: "many" }] }, "body.conditions.0.value"],
      [
        { ...simple, conditions: [{ field: "contact.field.plan", op: "equals", value: "x" }] },
        "body.conditions.0.field",
      ],
      [{ ...simple, actions: [{ type: "explode", value: "" }] }, "body.actions.0.type"],
      [{ ...simple, actions: [{ type: "set_status", value: "done" }] }, "body.actions.0.value"],
      [{ ...simple, actions: [{ type: "set_priority", value: "meh" }] }, "body.actions.0.value"],
      [{ ...simple, actions: [{ type: "set_severity", value: "sev0" }] }, "body.actions.0.value"],
      [{ ...simple, actions: [{ type: "assign_user", value: viewer.id }] }, "body.actions.0.value"],
      [{ ...simple, actions: [{ type: "assign_user", value: other.owner.id }] }, "body.actions.0.value"],
      [{ ...simple, actions: [{ type: "assign_team", value: otherTeam.id }] }, "body.actions.0.value"],
      [{ ...simple, actions: [{ type: "add_tag", value: "" }] }, "body.actions.0.value"],
      [{ ...simple, actions: [{ type: "remove_tag", value: "x".repeat(51) }] }, "body.actions.0.value"],
      [{ ...simple, actions: [{ type: "send_reply", value: "<script>x</script>" }] }, "body.actions.0.value"],
      [{ ...simple, actions: [{ type: "add_note", value: "" }] }, "body.actions.0.value"],
      [{ ...simple, actions: [{ type: "set_priority", value: "high", field: "plan" }] }, "body.actions.0.field"],
      [{ ...simple, actions: [{ type: "set_field", value: "gold" }] }, "body.actions.0.field"],
      [{ ...simple, actions: [{ type: "set_field", field: "nope", value: "x" }] }, "body.actions.0.field"],
      [{ ...simple, actions: [{ type: "set_field", field: "old", value: "x" }] }, "body.actions.0.field"],
      [{ ...simple, actions: [{ type: "set_field", field: "plan", value: "platinum" }] }, "body.actions.0.value"],
      [
        { ...simple, actions: [simple.actions[0], { type: "set_field", field: "seats", value: "lots" }] },
        "body.actions.1.value",
      ],
    ];
    for (const [body, location] of cases) {
      const res = await desk.api("POST", "/v1/automations", { headers: owner.headers, body });
      expect({ body, status: res.status, code: res.body.code }).toEqual({
        body,
        status: 422,
        code: "validation_failed",
      });
      expect({ body, locations: res.body.errors.map((e: { location: string }) => e.location) }).toEqual({
        body,
        locations: expect.arrayContaining([location]),
      });
    }
    const created = await desk.api("POST", "/v1/automations", { headers: owner.headers, body: simple });
    const patch = await desk.api("PATCH", `/v1/automations/${created.body.id}`, {
      headers: owner.headers,
      body: { name: "Changed", actions: [simple.actions[0], { type: "assign_user", value: viewer.id }] },
    });
    expect(patch.status).toBe(422);
    expect(patch.body.errors[0].location).toBe("body.actions.1.value");
    expect((await stored(workspace.id)).map((r) => r.name)).toEqual(["Urgent VIP"]);
    expect((await eventsAfter(desk, workspace.id, seq)).map((e) => e.type)).toEqual(["automation.created"]);
  });

  test("every valid condition and action form is accepted and stored normalized", async () => {
    const { workspace, owner } = await createWorkspaceWithOwner(desk);
    const agent = await addMember(desk, workspace.id, "agent");
    const team = await newTeam(desk, owner, { name: "Tier 2" });
    await newField(desk, owner, {
      name: "Plan",
      key: "plan",
      type: "multi_select",
      options: [{ label: "Gold" }, { label: "Silver" }],
    });
    await newField(desk, owner, { entity: "contact", name: "Tier", key: "tier", type: "text" });
    const mailbox = await desk.api("POST", "/v1/mailboxes", {
      headers: owner.headers,
      body: {
        name: "Help",
        email: `help-${workspace.id.slice(-6)}@acme.test`,
        inbound_kind: "forwarding",
        outbound_kind: "system",
      },
    });
    const res = await desk.api("POST", "/v1/automations", {
      headers: owner.headers,
      body: {
        name: "Everything",
        trigger: "ticket_updated",
        conditions: [
          { field: "body", op: "not_contains", value: "unsubscribe" },
          { field: "from_email", op: "equals", value: "a@b.test" },
          { field: "mailbox_id", op: "equals", value: mailbox.body.id },
          { field: "severity", op: "not_equals", value: "none" },
          { field: "tag", op: "contains", value: "vip" },
          { field: "sentiment", op: "equals", value: "Negative" },
          { field: "ai_decide", op: "lt", value: "0.3", question: "  Is this a refund request? " },
          { field: "field.plan", op: "all", value: "gold,silver" },
          { field: "contact.field.tier", op: "not_equals", value: "free" },
        ],
        actions: [
          { type: "set_status", value: "solved" },
          { type: "set_severity", value: "" },
          { type: "assign_user", value: agent.id },
          { type: "assign_team", value: team.id },
          { type: "assign_user", value: "" },
          { type: "mark_spam", value: "ignored" },
          { type: "ai_triage" },
          { type: "set_field", field: "plan", value: "gold, silver" },
        ],
      },
    });
    expect(res.status).toBe(201);
    expect(res.body.conditions[5]).toEqual({ field: "sentiment", op: "equals", value: "negative" });
    expect(res.body.conditions[6]).toEqual({
      field: "ai_decide",
      op: "lt",
      value: 0.3,
      question: "Is this a refund request?",
    });
    expect(res.body.actions.slice(5)).toEqual([
      { type: "mark_spam", value: "" },
      { type: "ai_triage", value: "" },
      { type: "set_field", field: "plan", value: "gold, silver" },
    ]);
  });

  test("label renames and merges rewrite the automations naming the label, with automation.updated", async () => {
    const { workspace, owner } = await createWorkspaceWithOwner(desk);
    const vip = await desk.api("POST", "/v1/tags", { headers: owner.headers, body: { name: "VIP" } });
    const old = await desk.api("POST", "/v1/tags", { headers: owner.headers, body: { name: "legacy" } });
    const gold = await desk.api("POST", "/v1/tags", { headers: owner.headers, body: { name: "Gold" } });
    const naming = await desk.api("POST", "/v1/automations", {
      headers: owner.headers,
      body: {
        name: "Names labels",
        trigger: "ticket_created",
        conditions: [
          { field: "tag", op: "equals", value: "vip" },
          { field: "tag", op: "contains", value: "vip" },
          { field: "subject", op: "equals", value: "vip" },
        ],
        actions: [
          { type: "add_tag", value: "Legacy" },
          { type: "remove_tag", value: "VIP" },
        ],
      },
    });
    const unrelated = await desk.api("POST", "/v1/automations", { headers: owner.headers, body: simple });
    const seq = await lastSeq(desk, workspace.id);
    expect(
      (await desk.api("PATCH", `/v1/tags/${vip.body.id}`, { headers: owner.headers, body: { name: "Very Important" } }))
        .status,
    ).toBe(200);
    expect(
      (
        await desk.api("POST", `/v1/tags/${old.body.id}/merge`, {
          headers: owner.headers,
          body: { into: gold.body.id },
        })
      ).status,
    ).toBe(200);
    const after = await desk.api("GET", `/v1/automations/${naming.body.id}`, { headers: owner.headers });
    // "contains" naming the whole label (what the builder offers) follows it too; the subject is text.
    expect(after.body.conditions).toEqual([
      { field: "tag", op: "equals", value: "Very Important" },
      { field: "tag", op: "contains", value: "Very Important" },
      { field: "subject", op: "equals", value: "vip" },
    ]);
    expect(after.body.actions).toEqual([
      { type: "add_tag", value: "Gold" },
      { type: "remove_tag", value: "Very Important" },
    ]);
    const updates = (await eventsAfter(desk, workspace.id, seq)).filter((e) => e.type === "automation.updated");
    expect(updates.map((e) => (e.data as { automation: { id: string } }).automation.id)).toEqual([
      naming.body.id,
      naming.body.id,
    ]);
    expect((await desk.api("GET", `/v1/automations/${unrelated.body.id}`, { headers: owner.headers })).body).toEqual(
      unrelated.body,
    );
  });
});
