import { afterAll, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { transact } from "../../src/db/tx";
import { notificationsOf } from "../../src/notifications/notifications.public";
import { addMember, createKey, createWorkspaceWithOwner } from "../factories";
import { startTestDesk } from "../harness";
import { freePort } from "../peers/dovecot";
import { sendRawSmtp } from "../peers/smtp-send";
import { manualClock } from "../../src/lib/clock";

/**
 * Running a team, end to end over real SMTP: a customer's email becomes a ticket; an automation
 * labels it and raises its priority; round robin assigns it to the agent who is online; the SLA
 * clock runs from the policy for its new priority; the assignee hears of it live on their socket
 * and by email; and when the clock passes the first-response deadline the breach fires once,
 * with an activity and another notification.
 */
const clock = manualClock(new Date("2026-11-24T09:00:00Z"));
const smtpPort = await freePort();
const desk = await startTestDesk({
  clock,
  env: { DESK_SMTP_PORT: String(smtpPort), DESK_INBOUND_DOMAIN: "desk.test" },
});
const sockets: WebSocket[] = [];
afterAll(() => {
  for (const s of sockets) s.close();
});

const settle = async () => {
  for (let i = 0; i < 4; i++) {
    await desk.consumers.drain();
    await desk.jobs.drain();
  }
};
const outboxTo = (address: string) => {
  const outbox = join(desk.dataDir, "outbox");
  return (existsSync(outbox) ? readdirSync(outbox) : [])
    .map((f) => readFileSync(join(outbox, f), "utf8"))
    .filter((m) => m.includes(`To: ${address}`));
};

test("email → automation → round robin → SLA → live and email notification → breach", async () => {
  const { owner } = await createWorkspaceWithOwner(desk);
  const agent = await addMember(desk, owner.workspaceId, "agent", { email: "ada@team.test", name: "Ada Agent" });
  const call = async (who: { headers: Record<string, string> }, method: string, path: string, body?: unknown) => {
    const res = await desk.api(method, path, { headers: who.headers, body });
    expect([method, path, res.status < 300]).toEqual([method, path, true]);
    return res.body;
  };
  // The team: Ada online, the owner away from assignment; round robin; a policy for urgent tickets.
  await call(owner, "PATCH", "/v1/members/me/availability", { availability: "offline" });
  await call(agent, "PATCH", "/v1/members/me/availability", { availability: "online" });
  await desk.api("POST", "/v1/me/heartbeat", { headers: agent.headers });
  await call(owner, "PATCH", "/v1/assignment", { mode: "round_robin" });
  await call(owner, "POST", "/v1/mailboxes", { name: "Support", email: "support@team.test" });
  await call(owner, "POST", "/v1/tags", { name: "outage" });
  await call(owner, "POST", "/v1/automations", {
    name: "Outages are urgent",
    trigger: "ticket_created",
    conditions: [{ field: "subject", op: "contains", value: "down" }],
    actions: [
      { type: "add_tag", value: "outage" },
      { type: "set_priority", value: "urgent" },
    ],
  });
  await call(owner, "POST", "/v1/sla-policies", {
    name: "Urgent",
    priority: "urgent",
    first_response_minutes: 30,
    resolution_minutes: 240,
  });

  // Ada listens on her socket.
  const { token } = await call(agent, "POST", "/v1/realtime/token");
  const frames: Array<{ type: string; data: Record<string, unknown> }> = [];
  const socket = new WebSocket(`${desk.url.replace("http", "ws")}/v1/realtime?token=${token}`);
  sockets.push(socket);
  socket.addEventListener("message", (e) => frames.push(JSON.parse(String(e.data))));
  await new Promise((resolve) => socket.addEventListener("open", resolve));

  const raw = new TextEncoder().encode(
    [
      "From: Carla Customer <carla@customer.test>",
      "To: support@team.test",
      "Subject: The shop is down",
      "Message-ID: <down-1@customer.test>",
      "Date: Tue, 24 Nov 2026 09:00:00 +0000",
      "",
      "Nobody can check out since nine.",
      "",
    ].join("\r\n"),
  );
  const replies = await sendRawSmtp(smtpPort, raw, { from: "carla@customer.test", to: ["support@team.test"] });
  expect(replies.at(-1)?.code ?? 0).toBeLessThan(400);
  await settle();

  const list = await call(owner, "GET", "/v1/tickets?status=open");
  expect(list.data).toHaveLength(1);
  const ticket = await call(owner, "GET", `/v1/tickets/${list.data[0].id}`);
  expect(ticket.subject).toBe("The shop is down");
  expect(ticket.tags.map((t: { name: string }) => t.name)).toEqual(["outage"]);
  expect(ticket.priority).toBe("urgent");
  expect(ticket.assignee?.id).toBe(agent.id);
  expect(ticket.sla).toMatchObject({
    first_response_due_at: "2026-11-24T09:30:00.000Z",
    resolution_due_at: "2026-11-24T13:00:00.000Z",
    breached: false,
  });

  // Told live and by email.
  for (let i = 0; i < 50 && !frames.some((f) => f.type === "notification.created"); i++) await Bun.sleep(20);
  const live = frames.filter((f) => f.type === "notification.created").map((f) => f.data.notification);
  expect(live).toContainEqual(
    expect.objectContaining({ type: "assigned", ticket: expect.objectContaining({ id: ticket.id }) }),
  );
  expect(outboxTo(agent.email).length).toBeGreaterThanOrEqual(1);

  // Nobody answers: at 09:31 the first-response deadline has passed. (People's access tokens have
  // expired by then; an API key and the stored notifications read the outcome.)
  const key = await createKey(desk, owner, ["tickets:read"]);
  clock.advance(31 * 60_000);
  await settle();
  const late = await call(key, "GET", `/v1/tickets/${ticket.id}`);
  expect(late.sla.breached).toBe(true);
  const activities = await call(key, "GET", `/v1/tickets/${ticket.id}/activities`);
  const breaches = (activities.data ?? activities).filter((a: { type: string }) => a.type === "sla_breached");
  expect(breaches.map((a: { data: { kind: string } }) => a.data.kind)).toEqual(["first_response"]);
  const told = async () =>
    (await transact(desk.deps.db, async (tx) => await notificationsOf(tx, owner.workspaceId, agent.id))).map(
      (n) => n.type,
    );
  expect(await told()).toEqual(["sla_breached", "assigned"]);
  // The breach fires once.
  clock.advance(60_000);
  await settle();
  expect(await told()).toEqual(["sla_breached", "assigned"]);
});
