import { afterEach, describe, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { addMember, createWorkspaceWithOwner, type Member } from "../../test/factories";
import { startTestDesk } from "../../test/harness";
import { connect, type TestSocket } from "../../test/kit/realtime-client";
import { newTeam, newTicket } from "../../test/kit/tickets";
import { systemContext } from "../auth/context";
import { manualClock } from "../lib/clock";
import { breachPass } from "../sla/sla.track";
import { transact } from "../db/tx";
import { addMessage, patchTicketFields } from "../tickets/tickets.public";
import { notificationsOf } from "./notifications.public";

const desk = await startTestDesk();
const wsBase = desk.url.replace(/^http/, "ws");
const open: TestSocket[] = [];
afterEach(() => {
  for (const s of open.splice(0)) s.ws.close();
});

async function socketFor(member: Pick<Member, "headers">) {
  const res = await desk.api("POST", "/v1/realtime/token", { headers: member.headers });
  const socket = connect(`${wsBase}/v1/realtime?token=${res.body.token}`);
  open.push(socket);
  await socket.opened;
  socket.send({ type: "ping" });
  await socket.waitFor((f) => f.type === "pong");
  return socket;
}

const drain = async () => {
  await desk.consumers.drain();
  await desk.consumers.drain();
};
const outboxTo = (address: string): string[] => {
  const outbox = join(desk.dataDir, "outbox");
  const files = existsSync(outbox) ? readdirSync(outbox) : [];
  return files.map((f) => readFileSync(join(outbox, f), "utf8")).filter((m) => m.includes(`To: ${address}`));
};
const typesOf = async (workspaceId: string, userId: string) =>
  (await transact(desk.deps.db, async (tx) => await notificationsOf(tx, workspaceId, userId)))
    .map((n) => n.type)
    .sort();
const follow = (ticketId: string, userId: string, headers: Record<string, string>) =>
  desk.api("PUT", `/v1/tickets/${ticketId}/followers/${userId}`, { headers });

async function breach(workspaceId: string, ticketId: string) {
  await transact(
    desk.deps.db,
    async (tx) =>
      await patchTicketFields(
        tx,
        workspaceId,
        ticketId,
        {
          sla: {
            policy_id: null,
            first_response_due_at: "2026-01-01T00:00:00.000Z",
            resolution_due_at: null,
            breached: true,
          },
        },
        desk.deps.clock.now().toISOString(),
        { type: "sla_breached", data: { kind: "first_response" }, actor: "system" },
      ),
  );
}

describe("followers get what the assignee gets", () => {
  test("customer reply, note, SLA breach and chat handoff reach a follower live and by email; the note's author and another workspace nothing", async () => {
    const { workspace, owner } = await createWorkspaceWithOwner(desk);
    const assignee = await addMember(desk, workspace.id, "agent");
    const follower = await addMember(desk, workspace.id, "agent");
    const author = await addMember(desk, workspace.id, "agent");
    const other = await createWorkspaceWithOwner(desk);
    const ticket = await newTicket(desk, owner, { contact: { email: "dee@customer.test", name: "Dee" } });
    for (const m of [follower, author]) expect((await follow(ticket.id, m.id, owner.headers)).status).toBe(204);
    await desk.api("PATCH", `/v1/tickets/${ticket.id}`, { headers: owner.headers, body: { assignee_id: assignee.id } });
    await drain();
    const live = await socketFor(follower);

    const contactId = (ticket.contact as { id: string }).id;
    await addMessage(
      systemContext(workspace.id),
      ticket.id,
      { kind: "reply", direction: "inbound", body_text: "Still broken", author: { type: "contact", contactId } },
      desk.deps,
    );
    const note = await desk.api("POST", `/v1/tickets/${ticket.id}/messages`, {
      headers: author.headers,
      body: { kind: "note", body_text: "Checked the logs: <b>disk</b> full" },
    });
    expect(note.status).toBe(201);
    await breach(workspace.id, ticket.id);

    // A chat handed to people: its assignee and its follower are told.
    const session = await desk.api("POST", "/v1/widget/session", { body: { key: workspace.widgetKey } });
    const visitor = { authorization: `Visitor ${session.body.visitor_token}` };
    const chat = await desk.api("POST", "/v1/widget/conversations", { headers: visitor, body: { body: "Hi" } });
    const chatId = chat.body.conversation.id as string;
    // The visitor's first message is handled before the follow (consumers may lag behind the request).
    await drain();
    await follow(chatId, follower.id, owner.headers);
    await desk.api("PATCH", `/v1/tickets/${chatId}`, { headers: owner.headers, body: { assignee_id: assignee.id } });
    const handoff = await desk.api("POST", `/v1/widget/conversations/${chatId}/handoff`, { headers: visitor });
    expect(handoff.body).toEqual({ requested: true, notified: 2 });
    await drain();

    expect(await typesOf(workspace.id, follower.id)).toEqual([
      "ai_handoff",
      "customer_replied",
      "note_added",
      "sla_breached",
    ]);
    expect(await typesOf(workspace.id, assignee.id)).toContain("note_added");
    expect(await typesOf(workspace.id, author.id)).toEqual(["customer_replied", "sla_breached"]);
    expect(await typesOf(other.workspace.id, other.owner.id)).toEqual([]);
    const [told] = await transact(
      desk.deps.db,
      async (tx) => await notificationsOf(tx, workspace.id, follower.id, ["note_added"]),
    );
    expect(told).toMatchObject({
      ticket: { id: ticket.id, number: ticket.number },
      data: {
        message_id: note.body.id,
        by: author.id,
        by_name: author.name,
        excerpt: "Checked the logs: <b>disk</b> full",
      },
    });

    const frame = await live.waitFor(
      (f) =>
        f.type === "notification.created" &&
        (f.data as { notification: { type: string } }).notification.type === "note_added",
    );
    expect((frame.data as { notification: unknown }).notification).toEqual(told);

    await desk.jobs.drain();
    const mails = outboxTo(follower.email);
    expect(mails.length).toBe(4);
    expect(mails.some((m) => m.includes(`${author.name} added a note on #${ticket.number}`))).toBe(true);
    expect(outboxTo(author.email).some((m) => m.includes("added a note"))).toBe(false);
  });

  test("SLA breach found by the tracker: the assignee and each follower once; an admin following an unassigned ticket once", async () => {
    const { workspace, owner } = await createWorkspaceWithOwner(desk);
    const assignee = await addMember(desk, workspace.id, "agent");
    const follower = await addMember(desk, workspace.id, "agent");
    const admin = await addMember(desk, workspace.id, "admin");
    const policy = await desk.api("POST", "/v1/sla-policies", {
      headers: owner.headers,
      body: { name: "Default", first_response_minutes: 60, resolution_minutes: 480 },
    });
    expect(policy.status).toBe(201);
    const mine = await newTicket(desk, owner, { assignee_id: assignee.id });
    const nobodys = await newTicket(desk, owner);
    for (const t of [mine, nobodys])
      for (const m of [follower, admin]) expect((await follow(t.id, m.id, owner.headers)).status).toBe(204);
    await drain();
    await desk.jobs.drain();
    const later = manualClock(new Date(desk.deps.clock.now().getTime() + 2 * 3_600_000));
    expect(await breachPass({ db: desk.deps.db, clock: later })).toBe(2);
    await drain();
    const breachesOf = async (userId: string) =>
      (await transact(desk.deps.db, async (tx) => await notificationsOf(tx, workspace.id, userId, ["sla_breached"])))
        .map((n) => n.ticket?.id)
        .sort();
    const both = [mine.id, nobodys.id].sort();
    expect(await breachesOf(assignee.id)).toEqual([mine.id]);
    expect(await breachesOf(follower.id)).toEqual(both);
    expect(await breachesOf(admin.id)).toEqual(both);
    expect(await breachesOf(owner.id)).toEqual([nobodys.id]);
  });

  test("a note: a mentioned follower is told once (mentioned); one who cannot see the ticket, nothing; digest people get no mail at once", async () => {
    const { workspace, owner } = await createWorkspaceWithOwner(desk);
    const insider = await addMember(desk, workspace.id, "agent");
    const mentioned = await addMember(desk, workspace.id, "agent");
    const outsider = await addMember(desk, workspace.id, "agent");
    const team = await newTeam(desk, owner, { name: "Ops", private: true, member_ids: [insider.id, mentioned.id] });
    const ticket = await newTicket(desk, owner, { team_id: team.id });
    for (const m of [insider, mentioned]) expect((await follow(ticket.id, m.id, owner.headers)).status).toBe(204);
    // Followed before the ticket moved to the private team: no longer allowed to see it.
    const open = await newTicket(desk, owner);
    await follow(open.id, outsider.id, owner.headers);
    await desk.api("PATCH", `/v1/tickets/${open.id}`, { headers: owner.headers, body: { team_id: team.id } });
    await desk.api("PUT", "/v1/notifications/preferences", { headers: insider.headers, body: { email: "digest" } });
    await drain();
    for (const id of [ticket.id, open.id]) {
      const res = await desk.api("POST", `/v1/tickets/${id}/messages`, {
        headers: owner.headers,
        body: {
          kind: "note",
          body_html: `<p><span data-mention="${mentioned.id}">@${mentioned.name}</span> see this</p>`,
        },
      });
      expect(res.status).toBe(201);
    }
    await drain();
    expect(await typesOf(workspace.id, insider.id)).toEqual(["note_added"]);
    expect(await typesOf(workspace.id, mentioned.id)).toEqual(["mentioned", "mentioned"]);
    expect(await typesOf(workspace.id, outsider.id)).toEqual([]);
    expect(await typesOf(workspace.id, owner.id)).toEqual([]);
    await desk.jobs.drain();
    expect(outboxTo(insider.email)).toEqual([]);
    expect(outboxTo(mentioned.email).length).toBe(2);
  });
});
