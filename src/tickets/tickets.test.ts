import { first } from "../db/store";
import { describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { jobs } from "../jobs/jobs.table";
import { members } from "../members/members.table";
import { addMember, createKey, createWorkspaceWithOwner } from "../../test/factories";
import { startTestDesk } from "../../test/harness";
import { activities, tickets } from "./tickets.table";
import { eventsAfter, newField, newTeam, newTicket } from "../../test/kit/tickets";
import { lastSeq } from "../../test/kit/events";

const desk = await startTestDesk();
const stored = async (id: string) =>
  first(await desk.deps.db.select().from(tickets).where(eq(tickets.id, id)).limit(1))!;
const activityTypes = async (id: string) =>
  (await desk.deps.db.select().from(activities).where(eq(activities.ticketId, id))).map((a) => a.type);

describe("tickets: access", () => {
  test("401 without credential, 403 for low role and wrong scope, 404 for another workspace", async () => {
    const { workspace, owner } = await createWorkspaceWithOwner(desk);
    const other = await createWorkspaceWithOwner(desk);
    const viewer = await addMember(desk, workspace.id, "viewer");
    const ticket = await newTicket(desk, owner);
    expect((await desk.api("GET", "/v1/tickets")).status).toBe(401);
    expect((await desk.api("POST", "/v1/tickets", { body: { subject: "x" } })).status).toBe(401);
    expect((await desk.api("POST", "/v1/tickets", { headers: viewer.headers, body: { subject: "x" } })).status).toBe(
      403,
    );
    expect(
      (await desk.api("PATCH", `/v1/tickets/${ticket.id}`, { headers: viewer.headers, body: { status: "pending" } }))
        .status,
    ).toBe(403);
    expect((await desk.api("GET", `/v1/tickets/${ticket.id}`, { headers: viewer.headers })).status).toBe(200);
    const readKey = await createKey(desk, owner, ["tickets:read"]);
    expect((await desk.api("POST", "/v1/tickets", { headers: readKey.headers, body: { subject: "x" } })).status).toBe(
      403,
    );
    expect(
      (await desk.api("GET", "/v1/tickets", { headers: (await createKey(desk, owner, ["contacts:read"])).headers }))
        .status,
    ).toBe(403);
    for (const [method, path, body] of [
      ["GET", `/v1/tickets/${ticket.id}`, undefined],
      ["GET", `/v1/tickets/${ticket.number}`, undefined],
      ["PATCH", `/v1/tickets/${ticket.id}`, { subject: "stolen" }],
      ["DELETE", `/v1/tickets/${ticket.id}`, undefined],
      ["GET", `/v1/tickets/${ticket.id}/messages`, undefined],
      ["GET", `/v1/tickets/${ticket.id}/activities`, undefined],
      ["POST", `/v1/tickets/${ticket.id}/messages`, { kind: "note", body_html: "hi" }],
      ["POST", `/v1/tickets/${ticket.id}/merge`, { into_id: ticket.id }],
    ] as const) {
      expect((await desk.api(method, path, { headers: other.owner.headers, body })).status, `${method} ${path}`).toBe(
        404,
      );
    }
    const bulk = await desk.api("POST", "/v1/tickets/bulk", {
      headers: other.owner.headers,
      body: { ids: [ticket.id], patch: { status: "solved" } },
    });
    expect(bulk.status).toBe(422);
    expect((await stored(ticket.id)).subject).toBe("Help needed");
    expect((await stored(ticket.id)).deletedAt).toBeNull();
    const list = await desk.api("GET", "/v1/tickets", { headers: other.owner.headers });
    expect(list.body.data).toEqual([]);
  });

  test("GET by UUID, number, #number and %23number", async () => {
    const { owner } = await createWorkspaceWithOwner(desk);
    const ticket = await newTicket(desk, owner);
    for (const ref of [ticket.id, String(ticket.number), `%23${ticket.number}`]) {
      const res = await desk.api("GET", `/v1/tickets/${ref}`, { headers: owner.headers });
      expect(res.status, ref).toBe(200);
      expect(res.body.id).toBe(ticket.id);
    }
    expect((await desk.api("GET", "/v1/tickets/999999", { headers: owner.headers })).status).toBe(404);
    expect((await desk.api("GET", "/v1/tickets/not-a-ref", { headers: owner.headers })).status).toBe(404);
  });
});

describe("tickets: create", () => {
  test("numbers per workspace, contact found or created, first message, events in order", async () => {
    const { workspace, owner } = await createWorkspaceWithOwner(desk);
    const other = await createWorkspaceWithOwner(desk);
    const agent = await addMember(desk, workspace.id, "agent");
    const seq = await lastSeq(desk, workspace.id);
    const first = await newTicket(desk, owner, {
      subject: "Cannot log in",
      contact: { email: "Ann@Example.test", name: "Ann" },
      body_html: "<p>Hi there</p>",
      priority: "high",
      severity: "sev2",
      assignee_id: agent.id,
      tags: ["login"],
    });
    expect(first.number).toBe(1);
    expect(first).toMatchObject({
      subject: "Cannot log in",
      status: "open",
      priority: "high",
      severity: "sev2",
      channel: "api",
      message_count: 1,
      last_message_preview: "Hi there",
    });
    expect((first.contact as { email: string }).email).toBe("ann@example.test");
    expect((first.assignee as { id: string }).id).toBe(agent.id);
    expect((first.tags as Array<{ name: string }>).map((t) => t.name)).toEqual(["login"]);
    // The creation's own events, in commit order. The assignee's notification is a consumer's later
    // reaction and may already have landed behind them.
    const types = (await eventsAfter(desk, workspace.id, seq))
      .map((e) => e.type)
      .filter((type) => type !== "notification.created");
    expect(types).toEqual(["contact.created", "tag.created", "ticket.created", "message.created"]);
    const second = await newTicket(desk, owner, { contact: { email: "ann@example.test" } });
    expect(second.number).toBe(2);
    expect((second.contact as { id: string }).id).toBe((first.contact as { id: string }).id);
    expect((await newTicket(desk, other.owner)).number).toBe(1);
  });

  test("bad input answers 422 and stores nothing", async () => {
    const { workspace, owner } = await createWorkspaceWithOwner(desk);
    const other = await createWorkspaceWithOwner(desk);
    const viewer = await addMember(desk, workspace.id, "viewer");
    const foreignMember = await addMember(desk, other.workspace.id, "agent");
    const foreignTeam = await newTeam(desk, other.owner, { name: "Theirs" });
    const foreignContact = await newTicket(desk, other.owner, { contact: { email: "x@other.test" } });
    const cases: Array<[Record<string, unknown>, string]> = [
      [{}, "body.subject"],
      [{ subject: 42 }, "body.subject"],
      [{ subject: "x", priority: "extreme" }, "body.priority"],
      [{ subject: "x", unknown_field: 1 }, "body"],
      [{ subject: "x", assignee_id: viewer.id }, "body.assignee_id"],
      [{ subject: "x", assignee_id: foreignMember.id }, "body.assignee_id"],
      [{ subject: "x", team_id: foreignTeam.id }, "body.team_id"],
      [{ subject: "x", contact_id: (foreignContact.contact as { id: string }).id }, "body.contact_id"],
      [{ subject: "x", contact: { email: "not-an-email" } }, "body.contact.email"],
      [{ subject: "x", fields: { nope: "1" } }, "body.fields.nope"],
    ];
    for (const [body, location] of cases) {
      const res = await desk.api("POST", "/v1/tickets", { headers: owner.headers, body });
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body.code).toBe("validation_failed");
      expect(
        res.body.errors.map((e: { location: string }) => e.location).some((l: string) => l.startsWith(location)),
        `${JSON.stringify(body)} ${res.text}`,
      ).toBe(true);
      expect(res.text).not.toContain("at ");
    }
    expect(await desk.deps.db.select().from(tickets).where(eq(tickets.workspaceId, workspace.id))).toEqual([]);
  });
});

describe("tickets: update", () => {
  test("PATCH every field: activities, ticket.updated with changes, assignee topic", async () => {
    const { workspace, owner } = await createWorkspaceWithOwner(desk);
    const agent = await addMember(desk, workspace.id, "agent");
    const team = await newTeam(desk, owner, { name: "Billing" });
    await newField(desk, owner, { name: "Plan", key: "plan", type: "text" });
    const ticket = await newTicket(desk, owner);
    const seq = await lastSeq(desk, workspace.id);
    const res = await desk.api("PATCH", `/v1/tickets/${ticket.id}`, {
      headers: owner.headers,
      body: {
        subject: "New subject",
        status: "pending",
        priority: "urgent",
        severity: "sev1",
        assignee_id: agent.id,
        team_id: team.id,
        spam: false,
        tags: ["a", "b"],
        fields: { plan: "pro" },
        custom: { language: "de" },
      },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      subject: "New subject",
      status: "pending",
      priority: "urgent",
      severity: "sev1",
      team_id: team.id,
      fields: { plan: "pro" },
      custom: { language: "de" },
    });
    expect(res.body.assignee.id).toBe(agent.id);
    const evs = await eventsAfter(desk, workspace.id, seq);
    const updated = evs.filter((e) => e.type === "ticket.updated");
    expect(updated).toHaveLength(1);
    expect((updated[0]!.data.changes as string[]).sort()).toEqual(
      ["assignee", "custom", "fields", "priority", "severity", "status", "subject", "tags", "team_id"].sort(),
    );
    expect(updated[0]!.topics).toContain(`user:${agent.id}`);
    const activityEvents = evs
      .filter((e) => e.type === "activity.created")
      .map((e) => (e.data.activity as { type: string }).type);
    expect(activityEvents.sort()).toEqual(
      [
        "assigned",
        "field_changed",
        "priority_changed",
        "severity_changed",
        "status_changed",
        "tagged",
        "tagged",
        "team_changed",
      ].sort(),
    );
    const acts = await desk.api("GET", `/v1/tickets/${ticket.id}/activities`, { headers: owner.headers });
    const statusChange = acts.body.data.find((a: { type: string }) => a.type === "status_changed");
    expect(statusChange).toMatchObject({
      data: { from: "open", to: "pending" },
      actor: { type: "user", user: { id: owner.id } },
    });
    expect(acts.body.data.find((a: { type: string }) => a.type === "field_changed").data).toEqual({
      key: "plan",
      from: null,
      to: "pro",
    });
    // severity null clears; an unchanged PATCH emits nothing
    expect(
      (await desk.api("PATCH", `/v1/tickets/${ticket.id}`, { headers: owner.headers, body: { severity: null } })).body
        .severity,
    ).toBeNull();
    const before = await lastSeq(desk, workspace.id);
    await desk.api("PATCH", `/v1/tickets/${ticket.id}`, { headers: owner.headers, body: { priority: "urgent" } });
    expect(await lastSeq(desk, workspace.id)).toBe(before);
  });

  test("bad PATCH input answers 422 and changes nothing", async () => {
    const { workspace, owner } = await createWorkspaceWithOwner(desk);
    const viewer = await addMember(desk, workspace.id, "viewer");
    const ticket = await newTicket(desk, owner);
    for (const body of [
      { status: "done" },
      { spam: "yes" },
      { assignee_id: viewer.id },
      { snoozed_until: "tomorrow" },
      { foo: 1 },
      { subject: "" },
      { fields: { missing: 1 } },
    ]) {
      const res = await desk.api("PATCH", `/v1/tickets/${ticket.id}`, {
        headers: owner.headers,
        body: { priority: "low", ...body },
      });
      expect(res.status, JSON.stringify(body)).toBe(422);
    }
    expect((await stored(ticket.id)).priority).toBe("normal");
  });

  test("required_on_solve: 422 field_required at body.fields.<key>; supplying the value solves in one step", async () => {
    const { owner } = await createWorkspaceWithOwner(desk);
    await newField(desk, owner, { name: "Cause", key: "cause", type: "text", required_on_solve: true });
    const ticket = await newTicket(desk, owner);
    const refused = await desk.api("PATCH", `/v1/tickets/${ticket.id}`, {
      headers: owner.headers,
      body: { status: "solved" },
    });
    expect(refused.status).toBe(422);
    expect(refused.body.code).toBe("field_required");
    expect(refused.body.errors).toEqual([{ location: "body.fields.cause", message: expect.any(String) }]);
    expect((await stored(ticket.id)).status).toBe("open");
    const bulk = await desk.api("POST", "/v1/tickets/bulk", {
      headers: owner.headers,
      body: { ids: [ticket.id], patch: { status: "closed" } },
    });
    expect(bulk.body.code).toBe("field_required");
    const reply = await desk.api("POST", `/v1/tickets/${ticket.id}/messages`, {
      headers: owner.headers,
      body: { kind: "reply", body_html: "done", status: "solved" },
    });
    expect(reply.body.code).toBe("field_required");
    expect((await stored(ticket.id)).messageCount).toBe(0);
    const solved = await desk.api("PATCH", `/v1/tickets/${ticket.id}`, {
      headers: owner.headers,
      body: { status: "solved", fields: { cause: "bug" } },
    });
    expect(solved.status).toBe(200);
    expect(solved.body.status).toBe("solved");
    expect(solved.body.solved_at).not.toBeNull();
    const created = await desk.api("POST", "/v1/tickets", {
      headers: owner.headers,
      body: { subject: "x", status: "solved" },
    });
    expect(created.body.code).toBe("field_required");
  });

  test("snooze: a durable job reopens the ticket when due", async () => {
    const { workspace, owner } = await createWorkspaceWithOwner(desk);
    const ticket = await newTicket(desk, owner);
    const past = new Date(Date.now() - 60_000).toISOString();
    const seq = await lastSeq(desk, workspace.id);
    const res = await desk.api("PATCH", `/v1/tickets/${ticket.id}`, {
      headers: owner.headers,
      body: { status: "on_hold", snoozed_until: past },
    });
    expect(res.body.snoozed_until).toBe(past);
    const job = (await desk.deps.db.select().from(jobs).where(eq(jobs.kind, "tickets.wake_snoozed"))).find(
      (j) => (j.payload as { ticket_id: string }).ticket_id === ticket.id,
    );
    expect(job).toBeDefined();
    await desk.jobs.drain();
    expect(await stored(ticket.id)).toMatchObject({ status: "open", snoozedUntil: null });
    const woken = (await eventsAfter(desk, workspace.id, seq)).filter((e) => e.type === "ticket.updated").at(-1)!;
    expect(woken.data.changes).toEqual(["snoozed_until", "status"]);
    expect((await activityTypes(ticket.id)).filter((t) => t === "status_changed")).toHaveLength(2);
    // a ticket snoozed for the future is left alone
    const future = new Date(Date.now() + 3_600_000).toISOString();
    await desk.api("PATCH", `/v1/tickets/${ticket.id}`, {
      headers: owner.headers,
      body: { status: "pending", snoozed_until: future },
    });
    await desk.jobs.drain();
    expect((await stored(ticket.id)).status).toBe("pending");
  });

  test("soft delete emits ticket.deleted and hides the ticket", async () => {
    const { workspace, owner } = await createWorkspaceWithOwner(desk);
    const ticket = await newTicket(desk, owner);
    const seq = await lastSeq(desk, workspace.id);
    const res = await desk.api("DELETE", `/v1/tickets/${ticket.id}`, { headers: owner.headers });
    expect(res.status).toBe(204);
    expect((await stored(ticket.id)).deletedAt).not.toBeNull();
    const evs = await eventsAfter(desk, workspace.id, seq);
    expect(evs.map((e) => [e.type, e.data])).toEqual([["ticket.deleted", { ticket_id: ticket.id }]]);
    expect((await desk.api("GET", `/v1/tickets/${ticket.id}`, { headers: owner.headers })).status).toBe(404);
    expect((await desk.api("GET", "/v1/tickets", { headers: owner.headers })).body.data).toEqual([]);
  });
});

describe("tickets: bulk, merge, spam, counts", () => {
  test("bulk patch and delete answer { updated, ids }; one bad id changes nothing", async () => {
    const { workspace, owner } = await createWorkspaceWithOwner(desk);
    const a = await newTicket(desk, owner);
    const b = await newTicket(desk, owner);
    const res = await desk.api("POST", "/v1/tickets/bulk", {
      headers: owner.headers,
      body: { ids: [a.id, `#${b.number}`], patch: { status: "pending", add_tags: ["bulk"] } },
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ updated: 2, ids: [a.id, b.id] });
    expect((await stored(b.id)).status).toBe("pending");
    const bad = await desk.api("POST", "/v1/tickets/bulk", {
      headers: owner.headers,
      body: { ids: [a.id, "00000000-0000-7000-8000-000000000000"], patch: { status: "solved" } },
    });
    expect(bad.status).toBe(422);
    expect(bad.body.errors[0].location).toBe("body.ids.1");
    expect((await stored(a.id)).status).toBe("pending");
    const seq = await lastSeq(desk, workspace.id);
    const del = await desk.api("POST", "/v1/tickets/bulk", {
      headers: owner.headers,
      body: { ids: [a.id, b.id], delete: true },
    });
    expect(del.body).toEqual({ updated: 2, ids: [a.id, b.id] });
    expect((await eventsAfter(desk, workspace.id, seq)).map((e) => e.type)).toEqual([
      "ticket.deleted",
      "ticket.deleted",
    ]);
    expect(
      (await desk.api("POST", "/v1/tickets/bulk", { headers: owner.headers, body: { ids: [], patch: {} } })).status,
    ).toBe(422);
  });

  test("merge moves messages, closes the source pointing at the target, logs merged, answers the target", async () => {
    const { owner } = await createWorkspaceWithOwner(desk);
    const source = await newTicket(desk, owner, { body_html: "first", tags: ["from-source"] });
    const target = await newTicket(desk, owner, { body_html: "second" });
    await desk.api("POST", `/v1/tickets/${source.id}/messages`, {
      headers: owner.headers,
      body: { kind: "note", body_html: "note" },
    });
    const res = await desk.api("POST", `/v1/tickets/${source.id}/merge`, {
      headers: owner.headers,
      body: { into_id: `#${target.number}` },
    });
    expect(res.status).toBe(200);
    expect(res.body.id).toBe(target.id);
    expect(res.body.message_count).toBe(3);
    expect(res.body.tags.map((t: { name: string }) => t.name)).toContain("from-source");
    expect(await stored(source.id)).toMatchObject({ status: "closed", mergedIntoId: target.id });
    expect(await activityTypes(source.id)).toContain("merged");
    const msgs = await desk.api("GET", `/v1/tickets/${target.id}/messages`, { headers: owner.headers });
    expect(msgs.body.data).toHaveLength(3);
    const list = await desk.api("GET", "/v1/tickets?status=closed", { headers: owner.headers });
    expect(list.body.data).toEqual([]);
    expect(
      (
        await desk.api("POST", `/v1/tickets/${target.id}/merge`, {
          headers: owner.headers,
          body: { into_id: target.id },
        })
      ).status,
    ).toBe(422);
  });

  test("merge takes into_id as a UUID, a number, a numeric string or #n; anything else is 422", async () => {
    const { owner } = await createWorkspaceWithOwner(desk);
    const target = await newTicket(desk, owner);
    for (const into of [target.number, String(target.number), `#${target.number}`, target.id]) {
      const source = await newTicket(desk, owner);
      const res = await desk.api("POST", `/v1/tickets/${source.id}/merge`, {
        headers: owner.headers,
        body: { into_id: into },
      });
      expect([into, res.status, res.body.id]).toEqual([into, 200, target.id]);
      expect((await stored(source.id)).mergedIntoId).toBe(target.id);
    }
    const source = await newTicket(desk, owner);
    for (const into of [0, -1, 1.5, "", true, null, "#x"]) {
      const res = await desk.api("POST", `/v1/tickets/${source.id}/merge`, {
        headers: owner.headers,
        body: { into_id: into },
      });
      expect([into, res.status]).toEqual([into, 422]);
      expect(res.body.code).toBe("validation_failed");
    }
    // another workspace's ticket number is simply not found
    const other = await createWorkspaceWithOwner(desk);
    const foreign = await newTicket(desk, other.owner);
    const res = await desk.api("POST", `/v1/tickets/${source.id}/merge`, {
      headers: owner.headers,
      body: { into_id: foreign.id },
    });
    expect(res.status).toBe(422);
  });

  test("counts: statuses, unassigned, mine, spam, views", async () => {
    const { workspace, owner } = await createWorkspaceWithOwner(desk);
    const { createView } = await import("../views/views.service");
    await newTicket(desk, owner);
    await newTicket(desk, owner, { assignee_id: owner.id, priority: "urgent" });
    await newTicket(desk, owner, { status: "pending" });
    const spam = await newTicket(desk, owner);
    await desk.api("PATCH", `/v1/tickets/${spam.id}`, { headers: owner.headers, body: { spam: true } });
    const view = await createView(
      owner.ctx,
      { name: "Urgent", shared: true, filters: { priority: ["urgent"] } },
      desk.deps,
    );
    const res = await desk.api("GET", "/v1/tickets/counts", { headers: owner.headers });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      unassigned: 2,
      mine: 1,
      open: 2,
      pending: 1,
      on_hold: 0,
      solved: 0,
      snoozed: 0,
      spam: 1,
      views: { [view.id]: 1 },
    });
    expect(
      (await desk.api("GET", "/v1/tickets?spam=true", { headers: owner.headers })).body.data.map(
        (t: { id: string }) => t.id,
      ),
    ).toEqual([spam.id]);
    // the trigger-kept buckets follow every kind of change: reassign, solve, delete, merge, private team
    const agent = await addMember(desk, workspace.id, "agent");
    const team = await newTeam(desk, owner, { name: "Hidden", private: true });
    const x = await newTicket(desk, owner);
    const y = await newTicket(desk, owner);
    await desk.api("PATCH", `/v1/tickets/${x.id}`, {
      headers: owner.headers,
      body: { assignee_id: owner.id, status: "solved" },
    });
    await desk.api("DELETE", `/v1/tickets/${y.id}`, { headers: owner.headers });
    const z = await newTicket(desk, owner, { team_id: team.id });
    await desk.api("POST", `/v1/tickets/${spam.id}/merge`, { headers: owner.headers, body: { into_id: x.id } });
    const after = await desk.api("GET", "/v1/tickets/counts", { headers: owner.headers });
    expect(after.body).toMatchObject({ unassigned: 3, mine: 1, open: 3, pending: 1, solved: 1, spam: 0 });
    const forAgent = await desk.api("GET", "/v1/tickets/counts", { headers: agent.headers });
    expect(forAgent.body).toMatchObject({ unassigned: 2, mine: 0, open: 2 });
    const live = (await desk.deps.db.select().from(tickets).where(eq(tickets.workspaceId, workspace.id))).filter(
      (t) => !t.deletedAt && !t.mergedIntoId,
    );
    expect(live.filter((t) => t.status === "open" && !t.spam)).toHaveLength(after.body.open);
    void z;
  });
});

describe("tickets: private teams", () => {
  test("visible only to team members and admins; events go to the team topic", async () => {
    const { workspace, owner } = await createWorkspaceWithOwner(desk);
    const insider = await addMember(desk, workspace.id, "agent");
    const outsider = await addMember(desk, workspace.id, "agent");
    const team = await newTeam(desk, owner, { name: "VIP", private: true, member_ids: [insider.id] });
    const seq = await lastSeq(desk, workspace.id);
    const ticket = await newTicket(desk, owner, { team_id: team.id, body_html: "secret" });
    const created = (await eventsAfter(desk, workspace.id, seq)).find((e) => e.type === "ticket.created")!;
    expect(created.privateTeamId).toBe(team.id);
    expect(created.topics[0]).toBe(`team:${workspace.id}:${team.id}`);
    expect((await desk.api("GET", `/v1/tickets/${ticket.id}`, { headers: insider.headers })).status).toBe(200);
    expect((await desk.api("GET", `/v1/tickets/${ticket.id}`, { headers: outsider.headers })).status).toBe(404);
    expect((await desk.api("GET", `/v1/tickets/${ticket.id}/messages`, { headers: outsider.headers })).status).toBe(
      404,
    );
    expect((await desk.api("GET", "/v1/tickets", { headers: outsider.headers })).body.data).toEqual([]);
    expect((await desk.api("GET", "/v1/tickets", { headers: insider.headers })).body.data).toHaveLength(1);
    expect((await desk.api("GET", "/v1/tickets/counts", { headers: outsider.headers })).body.open).toBe(0);
    expect(
      (await desk.api("PATCH", `/v1/tickets/${ticket.id}`, { headers: outsider.headers, body: { status: "solved" } }))
        .status,
    ).toBe(404);
    // an outsider cannot move a ticket into the private team either
    const own = await newTicket(desk, outsider);
    expect(
      (await desk.api("PATCH", `/v1/tickets/${own.id}`, { headers: outsider.headers, body: { team_id: team.id } }))
        .status,
    ).toBe(422);
  });
});

describe("a member leaving", () => {
  test("leaves their unsolved tickets unassigned with ticket.updated; solved ones and other workspaces keep theirs", async () => {
    const { workspace, owner } = await createWorkspaceWithOwner(desk);
    const agent = await addMember(desk, workspace.id, "agent");
    const open = await newTicket(desk, owner, { subject: "Open one", assignee_id: agent.id });
    const pending = await newTicket(desk, owner, { subject: "Pending one", assignee_id: agent.id, status: "pending" });
    const solved = await newTicket(desk, owner, { subject: "Solved one", assignee_id: agent.id });
    expect(
      (await desk.api("PATCH", `/v1/tickets/${solved.id}`, { headers: owner.headers, body: { status: "solved" } }))
        .status,
    ).toBe(200);
    const untouched = await newTicket(desk, owner, { subject: "Someone else's", assignee_id: owner.id });
    // The same person in another workspace keeps their tickets there.
    const elsewhere = await createWorkspaceWithOwner(desk);
    await desk.deps.db.insert(members).values({
      workspaceId: elsewhere.workspace.id,
      userId: agent.id,
      role: "agent",
      createdAt: new Date().toISOString(),
    });
    const theirs = await newTicket(desk, elsewhere.owner, { subject: "Elsewhere", assignee_id: agent.id });
    const before = await lastSeq(desk, workspace.id);

    expect((await desk.api("DELETE", `/v1/members/${agent.id}`, { headers: owner.headers })).status).toBe(204);

    const assignee = async (id: string) =>
      first(await desk.deps.db.select({ a: tickets.assigneeId }).from(tickets).where(eq(tickets.id, id)).limit(1))!.a;
    expect(await assignee(open.id)).toBeNull();
    expect(await assignee(pending.id)).toBeNull();
    expect(await assignee(solved.id)).toBe(agent.id);
    expect(await assignee(untouched.id)).toBe(owner.id);
    expect(await assignee(theirs.id)).toBe(agent.id);
    const emitted = await eventsAfter(desk, workspace.id, before);
    // Each unassignment is on the ticket's timeline too.
    expect(emitted.map((e) => e.type)).toEqual([
      "member.removed",
      "activity.created",
      "ticket.updated",
      "activity.created",
      "ticket.updated",
    ]);
    const updated = emitted
      .filter((e) => e.type === "ticket.updated")
      .map((e) => e.data as { ticket: { id: string; assignee: unknown }; changes: string[] });
    expect(updated.map((u) => u.ticket.id).sort()).toEqual([open.id, pending.id].sort());
    for (const u of updated) {
      expect(u.changes).toEqual(["assignee"]);
      expect(u.ticket.assignee).toBeNull();
    }
  });
});
