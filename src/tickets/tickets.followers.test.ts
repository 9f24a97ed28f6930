import { describe, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { eq } from "drizzle-orm";
import { addMember, createKey, createWorkspaceWithOwner } from "../../test/factories";
import { startTestDesk, type TestDesk } from "../../test/harness";
import { systemContext } from "../auth/context";
import { transact } from "../db/tx";
import { notificationsOf } from "../notifications/notifications.public";
import { ticketFollowers } from "./followers.table";
import { addMessage, patchTicketFields } from "./tickets.public";
import { eventsAfter, newTeam, newTicket } from "../../test/kit/tickets";
import { lastSeq } from "../../test/kit/events";

const desk: TestDesk = await startTestDesk();
const path = (ticketId: string, userId: string) => `/v1/tickets/${ticketId}/followers/${userId}`;
const stored = async (ticketId: string) =>
  (
    await desk.deps.db
      .select({ userId: ticketFollowers.userId })
      .from(ticketFollowers)
      .where(eq(ticketFollowers.ticketId, ticketId))
  ).map((r) => r.userId);
const outboxTo = (address: string): string[] => {
  const outbox = join(desk.dataDir, "outbox");
  const files = existsSync(outbox) ? readdirSync(outbox) : [];
  return files.map((f) => readFileSync(join(outbox, f), "utf8")).filter((m) => m.includes(`To: ${address}`));
};
const drain = async () => {
  await desk.consumers.drain();
  await desk.consumers.drain();
};

describe("followers", () => {
  test("401, 403 for viewers and read-only keys, 404 across workspaces, 422 for a member who cannot see it", async () => {
    const { workspace, owner } = await createWorkspaceWithOwner(desk);
    const agent = await addMember(desk, workspace.id, "agent");
    const viewer = await addMember(desk, workspace.id, "viewer");
    const ticket = await newTicket(desk, owner);
    expect((await desk.api("PUT", path(ticket.id, agent.id))).status).toBe(401);
    expect((await desk.api("PUT", path(ticket.id, "me"), { headers: viewer.headers })).status).toBe(403);
    const readKey = await createKey(desk, owner, ["tickets:read"]);
    expect((await desk.api("PUT", path(ticket.id, agent.id), { headers: readKey.headers })).status).toBe(403);
    expect((await desk.api("DELETE", path(ticket.id, agent.id), { headers: readKey.headers })).status).toBe(403);
    const other = await createWorkspaceWithOwner(desk);
    const foreignTicket = await newTicket(desk, other.owner);
    expect((await desk.api("PUT", path(foreignTicket.id, "me"), { headers: agent.headers })).status).toBe(404);
    expect((await desk.api("DELETE", path(foreignTicket.id, "me"), { headers: agent.headers })).status).toBe(404);
    expect((await desk.api("PUT", path(ticket.id, other.owner.id), { headers: agent.headers })).status).toBe(404);
    const outsider = await addMember(desk, workspace.id, "agent");
    const team = await newTeam(desk, owner, { name: "Secret", private: true, member_ids: [agent.id] });
    const secret = await newTicket(desk, owner, { team_id: team.id });
    const refused = await desk.api("PUT", path(secret.id, outsider.id), { headers: agent.headers });
    expect(refused.status).toBe(422);
    expect(refused.body.errors[0].location).toBe("path.user_id");
    expect((await desk.api("PUT", path(secret.id, "me"), { headers: outsider.headers })).status).toBe(404);
    expect(await stored(ticket.id)).toEqual([]);
    expect(await stored(secret.id)).toEqual([]);
  });

  test("follow yourself or a teammate: stored, Ticket.followers, ticket.updated naming followers, Following list", async () => {
    const { workspace, owner } = await createWorkspaceWithOwner(desk);
    const agent = await addMember(desk, workspace.id, "agent", { name: "Ada Agent" });
    const mate = await addMember(desk, workspace.id, "agent", { name: "Bo Mate" });
    const ticket = await newTicket(desk, owner);
    await newTicket(desk, owner, { subject: "Not followed" });
    const seq = await lastSeq(desk, workspace.id);
    expect((await desk.api("PUT", path(ticket.id, "me"), { headers: agent.headers })).status).toBe(204);
    expect((await desk.api("PUT", path(ticket.id, mate.id), { headers: agent.headers })).status).toBe(204);
    expect((await desk.api("PUT", path(ticket.id, mate.id), { headers: agent.headers })).status).toBe(204);
    expect((await stored(ticket.id)).sort()).toEqual([agent.id, mate.id].sort());
    const evs = await eventsAfter(desk, workspace.id, seq);
    expect(evs.map((e) => [e.type, (e.data as { changes: string[] }).changes])).toEqual([
      ["ticket.updated", ["followers"]],
      ["ticket.updated", ["followers"]],
    ]);
    const got = await desk.api("GET", `/v1/tickets/${ticket.id}`, { headers: owner.headers });
    expect(got.body.followers.map((f: { id: string }) => f.id).sort()).toEqual([agent.id, mate.id].sort());
    const following = await desk.api("GET", "/v1/tickets?follower=me", { headers: mate.headers });
    expect(following.body.data.map((t: { id: string }) => t.id)).toEqual([ticket.id]);
    expect((await desk.api("GET", "/v1/tickets?follower=me", { headers: owner.headers })).body.data).toEqual([]);
    expect((await desk.api("DELETE", path(ticket.id, "me"), { headers: mate.headers })).status).toBe(204);
    expect((await desk.api("DELETE", path(ticket.id, "me"), { headers: mate.headers })).status).toBe(204);
    expect(await stored(ticket.id)).toEqual([agent.id]);
    expect((await eventsAfter(desk, workspace.id, seq)).length).toBe(3);
  });

  test("followers get customer_replied and sla_breached live and by email; the assignee once; assigned stays the assignee's", async () => {
    const { workspace, owner } = await createWorkspaceWithOwner(desk);
    const assignee = await addMember(desk, workspace.id, "agent");
    const follower = await addMember(desk, workspace.id, "agent");
    const ticket = await newTicket(desk, owner, { contact: { email: "cy@customer.test", name: "Cy" } });
    await desk.api("PUT", path(ticket.id, follower.id), { headers: owner.headers });
    await desk.api("PUT", path(ticket.id, assignee.id), { headers: owner.headers });
    await desk.api("PATCH", `/v1/tickets/${ticket.id}`, { headers: owner.headers, body: { assignee_id: assignee.id } });
    const contactId = (ticket.contact as { id: string }).id;
    await addMessage(
      systemContext(workspace.id),
      ticket.id,
      { kind: "reply", direction: "inbound", body_text: "Any news?", author: { type: "contact", contactId } },
      desk.deps,
    );
    await transact(
      desk.deps.db,
      async (tx) =>
        await patchTicketFields(
          tx,
          workspace.id,
          ticket.id,
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
    await drain();
    const types = async (userId: string) =>
      (await transact(desk.deps.db, async (tx) => await notificationsOf(tx, workspace.id, userId)))
        .map((n) => n.type)
        .sort();
    expect(await types(follower.id)).toEqual(["customer_replied", "sla_breached"]);
    // The assignee follows too: told once of the reply; the SLA tracker (not run here) tells them of breaches.
    expect(await types(assignee.id)).toEqual(["assigned", "customer_replied"]);
    const live = (await eventsAfter(desk, workspace.id, 0)).filter(
      (e) => e.type === "notification.created" && e.topics.includes(`user:${follower.id}`),
    );
    expect(live.length).toBe(2);
    await desk.jobs.drain();
    expect(outboxTo(follower.email).length).toBe(2);
  });

  test("follow_on_mention (default off): mentioned members who may see the ticket start following", async () => {
    const { workspace, owner } = await createWorkspaceWithOwner(desk);
    const ann = await addMember(desk, workspace.id, "agent", { name: "Ann Lee" });
    const outsider = await addMember(desk, workspace.id, "agent", { name: "Out Sider" });
    const team = await newTeam(desk, owner, { name: "Inner", private: true, member_ids: [ann.id] });
    const ticket = await newTicket(desk, owner, { team_id: team.id });
    const note = (html: string) =>
      desk.api("POST", `/v1/tickets/${ticket.id}/messages`, {
        headers: owner.headers,
        body: { kind: "note", body_html: html },
      });
    const mention = (m: { id: string; name: string }) => `<span data-mention="${m.id}">@${m.name}</span>`;
    await note(`<p>${mention(ann)} look</p>`);
    await drain();
    expect(await stored(ticket.id)).toEqual([]);
    const on = await desk.api("PATCH", "/v1/workspace", {
      headers: owner.headers,
      body: { settings: { follow_on_mention: true } },
    });
    expect(on.status).toBe(200);
    const seq = await lastSeq(desk, workspace.id);
    await note(`<p>${mention(ann)} and ${mention(outsider)} and ${mention(owner)}</p>`);
    await drain();
    // The author never follows by mentioning themselves; the outsider cannot see a private team's ticket.
    expect(await stored(ticket.id)).toEqual([ann.id]);
    const followed = (await eventsAfter(desk, workspace.id, seq)).filter(
      (e) => e.type === "ticket.updated" && (e.data as { changes: string[] }).changes.includes("followers"),
    );
    expect(followed.length).toBe(1);
  });
});
