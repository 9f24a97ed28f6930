import { afterEach, describe, expect, test } from "bun:test";
import { signalAccessEnded } from "../auth/session-signals";
import { transact } from "../db/tx";
import { anyEvent } from "../../test/kit/events";
import { appendEvent } from "../events/append";
import { teamMembers, teams } from "../teams/teams.table";
import { startTestDesk } from "../../test/harness";
import { addMember, createKey, createWorkspaceWithOwner, type Member } from "../../test/factories";
import { connect, type TestSocket } from "../../test/kit/realtime-client";
import { sql } from "drizzle-orm";
import { rowsOf } from "../db/store";

const desk = await startTestDesk();
const wsBase = desk.url.replace(/^http/, "ws");
const open: TestSocket[] = [];
afterEach(() => {
  for (const s of open.splice(0)) s.ws.close();
});

async function tokenFor(headers: Record<string, string>) {
  const res = await desk.api("POST", "/v1/realtime/token", { headers });
  expect(res.status).toBe(200);
  return res.body as { token: string; url: string; expires_in: number };
}

/** Connects with a fresh token and waits until the gateway has admitted the socket (a pong proves it). */
async function socketFor(headers: Record<string, string>, query = "") {
  const { token } = await tokenFor(headers);
  const socket = connect(`${wsBase}/v1/realtime?token=${token}${query}`);
  open.push(socket);
  await socket.opened;
  await ready(socket);
  return socket;
}

async function ready(socket: TestSocket) {
  const before = socket.frames.filter((f) => f.type === "pong").length;
  socket.send({ type: "ping" });
  const end = Date.now() + 2000;
  while (socket.frames.filter((f) => f.type === "pong").length === before) {
    if (Date.now() > end) throw new Error("no pong");
    await Bun.sleep(5);
  }
  await Bun.sleep(10);
}

const emit = async (
  workspaceId: string,
  type: string,
  options: { privateTeamId?: string; extraTopics?: string[]; visibility?: "agents" | "public" } = {},
) =>
  await transact(
    desk.deps.db,
    async (tx) =>
      await appendEvent(tx, anyEvent(type), { workspaceId, data: { note: type, ...hookedData[type] }, ...options }),
  );

/**
 * In-transaction hooks trust their definition's data: a message that was not queued for mail is
 * all the outbox hook needs to read of message.created, and the gateway reads none of it.
 */
const hookedData: Record<string, Record<string, unknown>> = {
  "message.created": { message: { delivery_status: "sent" } },
};

async function privateTeam(workspaceId: string, members: Member[]) {
  const id = `team-${crypto.randomUUID()}`;
  const now = new Date().toISOString();
  await desk.deps.db
    .insert(teams)
    .values({ id, workspaceId, name: "Legal", private: true, createdAt: now, updatedAt: now });
  for (const m of members) await desk.deps.db.insert(teamMembers).values({ teamId: id, userId: m.id });
  return id;
}

describe("POST /v1/realtime/token", () => {
  test("any member gets a 5-minute ws token and the gateway url; keys need the realtime scope", async () => {
    const { workspace, owner } = await createWorkspaceWithOwner(desk);
    const viewer = await addMember(desk, workspace.id, "viewer");
    const answer = await tokenFor(viewer.headers);
    expect(answer.expires_in).toBe(300);
    expect(answer.url).toBe(`ws://localhost:${desk.server.port}/v1/realtime?token=${answer.token}`);
    const claims = await desk.deps.tokens.verify<{ sub: string; wid: string; sid: string }>(answer.token, "ws");
    expect(claims).toMatchObject({ sub: viewer.id, wid: workspace.id, sid: viewer.sessionId });
    expect(await desk.deps.tokens.verify(answer.token, "access")).toBeNull();
    expect((await desk.api("POST", "/v1/realtime/token")).status).toBe(401);
    expect(
      (
        await desk.api("POST", "/v1/realtime/token", {
          headers: (await createKey(desk, owner, ["tickets:read"])).headers,
        })
      ).status,
    ).toBe(403);
    expect(
      (await desk.api("POST", "/v1/realtime/token", { headers: (await createKey(desk, owner, ["realtime"])).headers }))
        .status,
    ).toBe(200);
  });
});

describe("gateway", () => {
  test("committed events reach the workspace's sockets, and only that workspace's", async () => {
    const a = await createWorkspaceWithOwner(desk);
    const b = await createWorkspaceWithOwner(desk);
    const key = await createKey(desk, a.owner, ["realtime"]);
    const [owner, viaKey, stranger] = [
      await socketFor(a.owner.headers),
      await socketFor(key.headers),
      await socketFor(b.owner.headers),
    ];
    const event = await emit(a.workspace.id, "ticket.created");
    const got = await owner.waitFor((f) => f.id === event.id);
    expect(got).toEqual({
      id: event.id,
      seq: event.seq,
      workspace_id: a.workspace.id,
      type: "ticket.created",
      visibility: "agents",
      topics: [`workspace:${a.workspace.id}`],
      data: { note: "ticket.created" },
      occurred_at: event.occurred_at,
    });
    await viaKey.waitFor((f) => f.id === event.id);
    await ready(stranger);
    expect(stranger.frames.some((f) => f.id === event.id)).toBe(false);
  });

  test("an API write reaches sockets: creating a webhook publishes webhook.created", async () => {
    const { owner } = await createWorkspaceWithOwner(desk);
    const socket = await socketFor(owner.headers);
    const res = await desk.api("POST", "/v1/webhooks", {
      headers: owner.headers,
      body: { url: "https://93.184.216.34/hook", events: ["*"] },
    });
    expect(res.status).toBe(201);
    const frame = await socket.waitFor((f) => f.type === "webhook.created");
    expect((frame.data as { webhook: { id: string } }).webhook.id).toBe(res.body.id);
  });

  test("private-team events: members and admins get them in full once, others a stand-in with the same seq", async () => {
    const { workspace, owner } = await createWorkspaceWithOwner(desk);
    const insider = await addMember(desk, workspace.id, "agent");
    const outsider = await addMember(desk, workspace.id, "agent");
    const team = await privateTeam(workspace.id, [insider]);
    const sockets = {
      owner: await socketFor(owner.headers),
      insider: await socketFor(insider.headers),
      outsider: await socketFor(outsider.headers),
    };
    const event = await emit(workspace.id, "ticket.updated", { privateTeamId: team });
    const marker = await emit(workspace.id, "ticket.created");
    for (const s of Object.values(sockets)) await s.waitFor((f) => f.id === marker.id);
    const seen = (s: TestSocket) => s.frames.filter((f) => f.seq === event.seq);
    expect(seen(sockets.owner).map((f) => f.type)).toEqual(["ticket.updated"]);
    expect(seen(sockets.insider).map((f) => f.type)).toEqual(["ticket.updated"]);
    expect(seen(sockets.outsider)).toEqual([
      {
        id: event.id,
        seq: event.seq,
        workspace_id: workspace.id,
        type: "event.hidden",
        visibility: "agents",
        topics: [`workspace:${workspace.id}`],
        data: {},
        occurred_at: event.occurred_at,
      },
    ]);
  });

  test("an event also addressed to user:<uid> reaches that user once", async () => {
    const { workspace, owner } = await createWorkspaceWithOwner(desk);
    const socket = await socketFor(owner.headers);
    const event = await emit(workspace.id, "notification.created", { extraTopics: [`user:${owner.id}`] });
    const marker = await emit(workspace.id, "ticket.created");
    await socket.waitFor((f) => f.id === marker.id);
    expect(socket.frames.filter((f) => f.id === event.id)).toHaveLength(1);
  });

  test("since=<seq> replays missed events first (stand-ins for what it may not see), then live ones", async () => {
    const { workspace, owner } = await createWorkspaceWithOwner(desk);
    const agent = await addMember(desk, workspace.id, "agent");
    const team = await privateTeam(workspace.id, []);
    const first = await emit(workspace.id, "ticket.created");
    const hidden = await emit(workspace.id, "ticket.updated", { privateTeamId: team });
    const last = await emit(workspace.id, "ticket.deleted");
    const socket = await socketFor(agent.headers, `&since=${first.seq - 1}`);
    const live = await emit(workspace.id, "contact.created");
    await socket.waitFor((f) => f.id === live.id);
    const events = socket.frames.filter((f) => typeof f.seq === "number");
    expect(events.map((f) => [f.seq, f.type])).toEqual([
      [first.seq, "ticket.created"],
      [hidden.seq, "event.hidden"],
      [last.seq, "ticket.deleted"],
      [live.seq, "contact.created"],
    ]);
    void owner;
  });

  test("connecting with since= while events are being written: every event arrives once, in order", async () => {
    const { workspace, owner } = await createWorkspaceWithOwner(desk);
    const start = (await emit(workspace.id, "ticket.created")).seq;
    // A writer keeps changes pending in most event-loop turns while the sockets are admitted.
    let writing = true;
    const writer = (async () => {
      while (writing) {
        for (let i = 0; i < 10; i++) await emit(workspace.id, "ticket.updated");
        await new Promise((resolve) => setImmediate(resolve));
      }
    })();
    const sockets = await Promise.all([1, 2, 3, 4].map(() => socketFor(owner.headers, `&since=${start}`)));
    writing = false;
    await writer;
    const last = await emit(workspace.id, "ticket.deleted");
    for (const socket of sockets) {
      await socket.waitFor((f) => f.id === last.id);
      const seqs = socket.frames.filter((f) => typeof f.seq === "number").map((f) => f.seq as number);
      expect(seqs).toEqual(Array.from({ length: last.seq - start }, (_, i) => start + 1 + i));
    }
  });

  test("ping answers pong; chat.typing reaches the others without seq or storage", async () => {
    const { workspace, owner } = await createWorkspaceWithOwner(desk);
    const agent = await addMember(desk, workspace.id, "agent");
    const [typist, watcher] = [await socketFor(agent.headers), await socketFor(owner.headers)];
    typist.send({ type: "chat.typing", ticket_id: "T-1" });
    const relayed = await watcher.waitFor((f) => f.type === "chat.typing");
    expect(relayed).toMatchObject({
      type: "chat.typing",
      ticket_id: "T-1",
      user_id: agent.id,
      workspace_id: workspace.id,
    });
    expect(relayed.seq).toBeUndefined();
    await ready(typist);
    expect(typist.frames.some((f) => f.type === "chat.typing")).toBe(false);
    const stored = (
      await rowsOf<{ n: number }>(
        desk.deps.db,
        sql`SELECT count(*) AS n FROM events WHERE workspace_id = ${workspace.id} AND type = 'chat.typing'`,
      )
    )[0];
    expect(stored!.n).toBe(0);
  });

  test.each([
    ["malformed JSON", "{not json"],
    ["a JSON array", "[1,2]"],
    ["an unknown type", JSON.stringify({ type: "subscribe", topic: "workspace:other" })],
    ["typing without a ticket", JSON.stringify({ type: "chat.typing" })],
  ])("%s closes that socket with 4400 and leaves the others alone", async (_name, frame) => {
    const { workspace, owner } = await createWorkspaceWithOwner(desk);
    const [bad, good] = [await socketFor(owner.headers), await socketFor(owner.headers)];
    bad.send(frame);
    const closed = await bad.closed;
    expect(closed.code).toBe(4400);
    expect(closed.reason.length).toBeGreaterThan(5);
    const event = await emit(workspace.id, "ticket.created");
    await good.waitFor((f) => f.id === event.id);
  });

  test("an expired, forged or wrong-purpose token is refused without an upgrade; a bad since answers 422", async () => {
    const { workspace, owner } = await createWorkspaceWithOwner(desk);
    const expired = await desk.deps.tokens.sign("ws", { sub: owner.id, sid: owner.sessionId, wid: workspace.id }, -10);
    for (const token of [expired, owner.token, "garbage", ""]) {
      const socket = connect(`${wsBase}/v1/realtime?token=${token}`);
      expect(socket.opened).rejects.toThrow("socket error");
      await socket.closed;
      expect(socket.frames).toEqual([]);
    }
    const res = await fetch(`${desk.url}/v1/realtime?token=x&since=abc`, {
      headers: {
        upgrade: "websocket",
        connection: "upgrade",
        "sec-websocket-key": "dGhlIHNhbXBsZSBub25jZQ==",
        "sec-websocket-version": "13",
      },
    });
    expect(res.status).toBe(422);
  });

  test("logout, member removal and key revocation close exactly that holder's sockets with 4403", async () => {
    const { workspace, owner } = await createWorkspaceWithOwner(desk);
    const agent = await addMember(desk, workspace.id, "agent");
    const key = await createKey(desk, owner, ["realtime"]);
    const [ownerSocket, agentSocket, keySocket] = [
      await socketFor(owner.headers),
      await socketFor(agent.headers),
      await socketFor(key.headers),
    ];
    signalAccessEnded(desk.deps.db, { kind: "sessions", userId: agent.id, sessionIds: [agent.sessionId] });
    expect(await agentSocket.closed).toEqual({ code: 4403, reason: "access ended" });
    signalAccessEnded(desk.deps.db, { kind: "api_key", apiKeyId: key.id });
    expect((await keySocket.closed).code).toBe(4403);
    const second = await socketFor(owner.headers);
    signalAccessEnded(desk.deps.db, { kind: "membership", userId: owner.id, workspaceId: workspace.id });
    expect((await ownerSocket.closed).code).toBe(4403);
    expect((await second.closed).code).toBe(4403);
  });

  test("the widget endpoint joins only the contact's topic and receives only public events", async () => {
    const { workspace, owner } = await createWorkspaceWithOwner(desk);
    const token = await desk.deps.tokens.sign("widget_ws", { wid: workspace.id, cid: "c-42" });
    const visitor = connect(`${wsBase}/v1/widget/realtime?token=${token}`);
    open.push(visitor);
    await visitor.opened;
    await ready(visitor);
    const agentOnly = await emit(workspace.id, "message.created", { extraTopics: [`contact:${workspace.id}:c-42`] });
    const otherContact = await emit(workspace.id, "message.created", {
      visibility: "public",
      extraTopics: [`contact:${workspace.id}:c-7`],
    });
    const workspaceWide = await emit(workspace.id, "ticket.created");
    // What the visitor receives of a public message is the widget's view of it (src/widget/widget.gateway.ts).
    const message = {
      id: "m-1",
      ticket_id: "t-1",
      kind: "reply",
      direction: "outbound",
      author: {
        type: "user",
        user: { id: "u", name: "Agent", email: "agent@example.test", avatar_url: null },
        contact: null,
      },
      body_html: "<p>hi</p>",
      body_text: "hi",
      attachments: [],
      reply_to: "",
      created_at: "2026-01-01T00:00:00.000Z",
    };
    const reply = await transact(
      desk.deps.db,
      async (tx) =>
        await appendEvent(tx, anyEvent("message.created"), {
          workspaceId: workspace.id,
          data: { ticket_id: "t-1", message },
          visibility: "public",
          extraTopics: [`contact:${workspace.id}:c-42`],
        }),
    );
    const got = await visitor.waitFor((f) => f.id === reply.id);
    expect(visitor.frames.filter((f) => f.seq !== undefined).map((f) => f.id)).toEqual([reply.id]);
    expect(got.topics).toEqual([`contact:${workspace.id}:c-42`]);
    expect(JSON.stringify(got)).not.toContain("agent@example.test");
    expect(JSON.stringify(got)).not.toContain("reply_to");
    void [agentOnly, otherContact, workspaceWide, owner];
    const agentTokenOnWidget = connect(`${wsBase}/v1/widget/realtime?token=${(await tokenFor(owner.headers)).token}`);
    expect(agentTokenOnWidget.opened).rejects.toThrow("socket error");
    await agentTokenOnWidget.closed;
  });

  test("a consumer that stops reading is dropped instead of buffering without bound", async () => {
    const { workspace, owner } = await createWorkspaceWithOwner(desk);
    const { token } = await tokenFor(owner.headers);
    const port = new URL(desk.url).port;
    let handshake = "";
    const raw = await Bun.connect({
      hostname: "127.0.0.1",
      port: Number(port),
      socket: {
        data(_s, chunk) {
          if (!handshake) handshake = chunk.toString().split("\r\n")[0]!;
        },
        drain() {},
      },
    });
    raw.write(
      `GET /v1/realtime?token=${token} HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n`,
    );
    const end = Date.now() + 2000;
    while (!handshake && Date.now() < end) await Bun.sleep(5);
    expect(handshake).toContain("101");
    raw.pause();
    const watcher = await socketFor(owner.headers);
    const big = "x".repeat(100_000);
    const before = desk.server.pendingWebSockets;
    // Paced so a reading client keeps up; the paused one cannot, whatever the kernel buffers.
    for (let i = 0; i < 300 && desk.server.pendingWebSockets >= before; i++) {
      await transact(
        desk.deps.db,
        async (tx) => await appendEvent(tx, anyEvent("ticket.updated"), { workspaceId: workspace.id, data: { big } }),
      );
      await Bun.sleep(2);
    }
    const until = Date.now() + 5000;
    while (desk.server.pendingWebSockets >= before && Date.now() < until) await Bun.sleep(20);
    expect(desk.server.pendingWebSockets).toBeLessThan(before);
    expect(watcher.ws.readyState).toBe(WebSocket.OPEN);
    raw.end();
  });
});

describe("gateway grants follow the database, not the token", () => {
  const seenAs = async (socket: TestSocket, event: { id: string; seq: number }, marker: { id: string }) => {
    await socket.waitFor((f) => f.id === marker.id);
    return socket.frames.filter((f) => f.seq === event.seq).map((f) => f.type);
  };

  test("removal from a private team re-scopes open sockets at once; adding back restores it", async () => {
    const { workspace, owner } = await createWorkspaceWithOwner(desk);
    const agent = await addMember(desk, workspace.id, "agent");
    const team = await desk.api("POST", "/v1/teams", {
      headers: owner.headers,
      body: { name: "Legal", member_ids: [agent.id], private: true },
    });
    const socket = await socketFor(agent.headers);
    const before = await emit(workspace.id, "ticket.updated", { privateTeamId: team.body.id });
    expect(await seenAs(socket, before, await emit(workspace.id, "ticket.created"))).toEqual(["ticket.updated"]);

    expect(
      (await desk.api("PATCH", `/v1/teams/${team.body.id}`, { headers: owner.headers, body: { member_ids: [] } }))
        .status,
    ).toBe(200);
    const after = await emit(workspace.id, "ticket.updated", { privateTeamId: team.body.id });
    expect(await seenAs(socket, after, await emit(workspace.id, "ticket.created"))).toEqual(["event.hidden"]);
    expect(JSON.stringify(socket.frames.filter((f) => f.seq === after.seq))).not.toContain("ticket.updated");

    expect(
      (
        await desk.api("PATCH", `/v1/teams/${team.body.id}`, {
          headers: owner.headers,
          body: { member_ids: [agent.id] },
        })
      ).status,
    ).toBe(200);
    const back = await emit(workspace.id, "ticket.updated", { privateTeamId: team.body.id });
    expect(await seenAs(socket, back, await emit(workspace.id, "ticket.created"))).toEqual(["ticket.updated"]);
  });

  test("a team made private re-scopes at once: its members get a real ticket in full, others a stand-in without its subject", async () => {
    const { workspace, owner } = await createWorkspaceWithOwner(desk);
    const insider = await addMember(desk, workspace.id, "agent");
    const outsider = await addMember(desk, workspace.id, "agent");
    const team = await desk.api("POST", "/v1/teams", {
      headers: owner.headers,
      body: { name: "Vault", member_ids: [insider.id], private: false },
    });
    const [inside, outside] = [await socketFor(insider.headers), await socketFor(outsider.headers)];
    expect(
      (await desk.api("PATCH", `/v1/teams/${team.body.id}`, { headers: owner.headers, body: { private: true } }))
        .status,
    ).toBe(200);
    const ticket = await desk.api("POST", "/v1/tickets", {
      headers: owner.headers,
      body: { subject: "Merger plans", team_id: team.body.id },
    });
    expect(ticket.status).toBe(201);
    const marker = await emit(workspace.id, "tag.created");
    for (const socket of [inside, outside]) await socket.waitFor((f) => f.id === marker.id);
    expect(inside.frames.some((f) => f.type === "ticket.created" && JSON.stringify(f).includes("Merger plans"))).toBe(
      true,
    );
    expect(JSON.stringify(outside.frames)).not.toContain("Merger plans");
    expect(outside.frames.some((f) => f.type === "event.hidden")).toBe(true);
  });

  test("demotion from admin takes every private team away from open sockets", async () => {
    const { workspace, owner } = await createWorkspaceWithOwner(desk);
    const admin = await addMember(desk, workspace.id, "admin");
    const team = await privateTeam(workspace.id, []);
    const socket = await socketFor(admin.headers);
    const before = await emit(workspace.id, "ticket.updated", { privateTeamId: team });
    expect(await seenAs(socket, before, await emit(workspace.id, "ticket.created"))).toEqual(["ticket.updated"]);
    expect(
      (await desk.api("PATCH", `/v1/members/${admin.id}`, { headers: owner.headers, body: { role: "agent" } })).status,
    ).toBe(200);
    const after = await emit(workspace.id, "ticket.updated", { privateTeamId: team });
    expect(await seenAs(socket, after, await emit(workspace.id, "ticket.created"))).toEqual(["event.hidden"]);
    expect(
      (await desk.api("PATCH", `/v1/members/${admin.id}`, { headers: owner.headers, body: { role: "admin" } })).status,
    ).toBe(200);
    const again = await emit(workspace.id, "ticket.updated", { privateTeamId: team });
    expect(await seenAs(socket, again, await emit(workspace.id, "ticket.created"))).toEqual(["ticket.updated"]);
  });

  test("a token issued before a removal or demotion connects with the current grants, replay included", async () => {
    const { workspace, owner } = await createWorkspaceWithOwner(desk);
    const agent = await addMember(desk, workspace.id, "agent");
    const admin = await addMember(desk, workspace.id, "admin");
    const team = await desk.api("POST", "/v1/teams", {
      headers: owner.headers,
      body: { name: "Legal", member_ids: [agent.id], private: true },
    });
    const secret = await emit(workspace.id, "ticket.updated", { privateTeamId: team.body.id });
    const [agentToken, adminToken] = [await tokenFor(agent.headers), await tokenFor(admin.headers)];
    expect(
      (await desk.api("PATCH", `/v1/teams/${team.body.id}`, { headers: owner.headers, body: { member_ids: [] } }))
        .status,
    ).toBe(200);
    expect(
      (await desk.api("PATCH", `/v1/members/${admin.id}`, { headers: owner.headers, body: { role: "viewer" } })).status,
    ).toBe(200);
    for (const { token } of [agentToken, adminToken]) {
      const socket = connect(`${wsBase}/v1/realtime?token=${token}&since=${secret.seq - 1}`);
      open.push(socket);
      await socket.opened;
      await ready(socket);
      const live = await emit(workspace.id, "ticket.updated", { privateTeamId: team.body.id });
      expect(await seenAs(socket, live, await emit(workspace.id, "ticket.created"))).toEqual(["event.hidden"]);
      expect(socket.frames.find((f) => f.seq === secret.seq)?.type).toBe("event.hidden");
    }
  });

  test("a member removed after their token was issued cannot connect", async () => {
    const { workspace, owner } = await createWorkspaceWithOwner(desk);
    const agent = await addMember(desk, workspace.id, "agent");
    const { token } = await tokenFor(agent.headers);
    expect((await desk.api("DELETE", `/v1/members/${agent.id}`, { headers: owner.headers })).status).toBe(204);
    const socket = connect(`${wsBase}/v1/realtime?token=${token}`);
    open.push(socket);
    // Refused before the upgrade: no socket is ever opened for them.
    expect(socket.opened).rejects.toThrow("socket error");
    await socket.closed;
    expect(socket.frames).toEqual([]);
  });
});

describe("gateway filters API keys' sockets by scope", () => {
  test("a realtime-only key gets stand-ins for ticket, contact and settings events; each read scope opens its own events", async () => {
    const { workspace, owner } = await createWorkspaceWithOwner(desk);
    const narrow = await socketFor((await createKey(desk, owner, ["realtime"])).headers);
    const tickets = await socketFor((await createKey(desk, owner, ["realtime", "tickets:read"])).headers);
    const contacts = await socketFor(
      (await createKey(desk, owner, ["realtime", "contacts:read", "settings:read"])).headers,
    );
    const team = await privateTeam(workspace.id, []);
    const sent = await Promise.all(
      ["ticket.created", "message.created", "contact.created", "member.updated", "tag.created"].map(
        async (type) => await emit(workspace.id, type),
      ),
    );
    const teamEvent = await emit(workspace.id, "ticket.updated", { privateTeamId: team });
    const marker = await emit(workspace.id, "tag.updated");
    const view = async (socket: TestSocket) => {
      await socket.waitFor((f) => f.id === marker.id);
      return [...sent, teamEvent].map((e) =>
        socket.frames
          .filter((f) => f.seq === e.seq)
          .map((f) => f.type)
          .join(),
      );
    };
    expect(await view(narrow)).toEqual([
      "event.hidden",
      "event.hidden",
      "event.hidden",
      "event.hidden",
      "tag.created",
      "event.hidden",
    ]);
    expect(await view(tickets)).toEqual([
      "ticket.created",
      "message.created",
      "event.hidden",
      "event.hidden",
      "tag.created",
      "ticket.updated",
    ]);
    expect(await view(contacts)).toEqual([
      "event.hidden",
      "event.hidden",
      "contact.created",
      "member.updated",
      "tag.created",
      "event.hidden",
    ]);
    expect(JSON.stringify(narrow.frames)).not.toContain('"note":"ticket.created"');
  });

  test("a key's replay through since= is filtered the same way", async () => {
    const { workspace, owner } = await createWorkspaceWithOwner(desk);
    const first = await emit(workspace.id, "ticket.created");
    const tag = await emit(workspace.id, "tag.created");
    const socket = await socketFor((await createKey(desk, owner, ["realtime"])).headers, `&since=${first.seq - 1}`);
    await socket.waitFor((f) => f.seq === tag.seq);
    expect(socket.frames.filter((f) => typeof f.seq === "number").map((f) => f.type)).toEqual([
      "event.hidden",
      "tag.created",
    ]);
  });
});
