import { afterEach, describe, expect, test } from "bun:test";
import { connect, type TestSocket } from "../../test/kit/realtime-client";
import { startTestDesk } from "../../test/harness";
import { addMember, createWorkspaceWithOwner } from "../../test/factories";

const desk = await startTestDesk();
const open: TestSocket[] = [];
afterEach(() => {
  for (const s of open.splice(0)) s.ws.close();
});

type Workspace = Awaited<ReturnType<typeof createWorkspaceWithOwner>>;

async function visitor(w: Workspace) {
  const res = await desk.api("POST", "/v1/widget/session", { body: { key: w.workspace.widgetKey } });
  expect(res.status).toBe(200);
  return {
    headers: { authorization: `Visitor ${res.body.visitor_token}` },
    contactId: res.body.contact.id as string,
    gatewayUrl: res.body.gateway_url as string,
  };
}

/** The gateway URL names the configured base; tests reach the real listener. */
const onListener = (url: string) => {
  const u = new URL(url);
  return `${desk.url.replace(/^http/, "ws")}${u.pathname}${u.search}`;
};

async function ready(socket: TestSocket) {
  await socket.opened;
  socket.send({ type: "ping" });
  await socket.waitFor((f) => f.type === "pong");
}

async function widgetSocket(url: string) {
  const socket = connect(onListener(url));
  open.push(socket);
  await ready(socket);
  return socket;
}

async function agentSocket(headers: Record<string, string>) {
  const res = await desk.api("POST", "/v1/realtime/token", { headers });
  const socket = connect(`${desk.url.replace(/^http/, "ws")}/v1/realtime?token=${res.body.token}`);
  open.push(socket);
  await ready(socket);
  return socket;
}

async function startChat(v: { headers: Record<string, string> }, body = "Hi there") {
  const res = await desk.api("POST", "/v1/widget/conversations", { headers: v.headers, body: { body } });
  expect(res.status).toBe(201);
  return res.body.conversation.id as string;
}

const reply = (w: Workspace, ticketId: string, kind: "reply" | "note", text: string) =>
  desk.api("POST", `/v1/tickets/${ticketId}/messages`, {
    headers: w.owner.headers,
    body: { kind, body_html: `<p>${text}</p>` },
  });

describe("widget gateway", () => {
  test("agent replies arrive live as the widget shows them; notes, other visitors' and agents' events never do", async () => {
    const w = await createWorkspaceWithOwner(desk);
    const v = await visitor(w);
    const other = await visitor(w);
    const ticketId = await startChat(v);
    const otherTicket = await startChat(other);
    const socket = await widgetSocket(v.gatewayUrl);
    const otherSocket = await widgetSocket(other.gatewayUrl);

    expect((await reply(w, ticketId, "note", "internal only")).status).toBe(201);
    await desk.api("PATCH", `/v1/tickets/${ticketId}`, { headers: w.owner.headers, body: { priority: "high" } });
    expect((await reply(w, otherTicket, "reply", "for the other visitor")).status).toBe(201);
    expect((await reply(w, ticketId, "reply", "We are on it")).status).toBe(201);

    const frame = await socket.waitFor((f) => f.type === "message.created");
    expect(frame).toMatchObject({
      visibility: "public",
      topics: [`contact:${w.workspace.id}:${v.contactId}`],
      data: { ticket_id: ticketId, message: { body_text: "We are on it", direction: "outbound" } },
    });
    await otherSocket.waitFor((f) => f.type === "message.created");
    await Bun.sleep(50);
    const events = socket.frames.filter((f) => f.seq !== undefined);
    expect(events).toHaveLength(1);
    const text = JSON.stringify(socket.frames);
    expect(text).not.toContain("internal only");
    expect(text).not.toContain("for the other visitor");
    expect(text).not.toContain(w.owner.email);
    for (const field of ["reply_to", "auth_failed", "form_sender", "delivery_status"])
      expect(text).not.toContain(field);
  });

  test("the visitor's own message reaches the agents live", async () => {
    const w = await createWorkspaceWithOwner(desk);
    const v = await visitor(w);
    const agent = await agentSocket(w.owner.headers);
    const ticketId = await startChat(v, "Where is my parcel?");
    const frame = await agent.waitFor(
      (f) => f.type === "message.created" && (f.data as { ticket_id: string }).ticket_id === ticketId,
    );
    expect((frame.data as { message: { body_text: string } }).message.body_text).toBe("Where is my parcel?");
  });

  test("chat.typing both ways: the visitor's reaches agents; an agent's reaches only that chat's visitor", async () => {
    const w = await createWorkspaceWithOwner(desk);
    const v = await visitor(w);
    const other = await visitor(w);
    const ticketId = await startChat(v);
    const otherTicket = await startChat(other);
    const agent = await agentSocket(w.owner.headers);
    const socket = await widgetSocket(v.gatewayUrl);
    const otherSocket = await widgetSocket(other.gatewayUrl);

    socket.send({ type: "chat.typing", ticket_id: ticketId });
    const seen = await agent.waitFor((f) => f.type === "chat.typing");
    expect(seen).toMatchObject({ ticket_id: ticketId, contact_id: v.contactId, user_id: null });
    expect(seen.seq).toBeUndefined();

    // A visitor cannot announce typing on someone else's chat.
    socket.send({ type: "chat.typing", ticket_id: otherTicket });
    await Bun.sleep(60);
    expect(agent.frames.filter((f) => f.type === "chat.typing" && f.ticket_id === otherTicket)).toHaveLength(0);

    agent.send({ type: "chat.typing", ticket_id: ticketId });
    const toVisitor = await socket.waitFor((f) => f.type === "chat.typing");
    expect(toVisitor).toEqual({
      type: "chat.typing",
      ticket_id: ticketId,
      from: "agent",
      occurred_at: expect.any(String),
    });
    await Bun.sleep(50);
    expect(otherSocket.frames.filter((f) => f.type === "chat.typing")).toHaveLength(0);
  });

  test("since= replays only the public events of the visitor's own chats missed while away", async () => {
    const w = await createWorkspaceWithOwner(desk);
    const agent = await addMember(desk, w.workspace.id, "agent");
    const v = await visitor(w);
    const other = await visitor(w);
    const ticketId = await startChat(v);
    const otherTicket = await startChat(other);
    const first = await widgetSocket(v.gatewayUrl);
    expect((await reply(w, ticketId, "reply", "first answer")).status).toBe(201);
    const seen = await first.waitFor((f) => f.type === "message.created");
    first.ws.close();
    await first.closed;

    // While away: a note, another visitor's reply, an unrelated ticket, then two replies.
    await reply(w, ticketId, "note", "internal while away");
    await reply(w, otherTicket, "reply", "someone else's answer");
    await desk.api("POST", "/v1/tickets", {
      headers: agent.headers,
      body: { subject: "Unrelated", contact: { email: "x@example.test" }, body_html: "<p>x</p>" },
    });
    await reply(w, ticketId, "reply", "second answer");
    await reply(w, ticketId, "reply", "third answer");

    const token = await desk.api("POST", "/v1/widget/gateway-token", { headers: v.headers });
    const again = await widgetSocket(`${token.body.gateway_url}&since=${seen.seq}`);
    await again.waitFor(
      (f) =>
        f.type === "message.created" &&
        (f.data as { message: { body_text: string } }).message.body_text === "third answer",
    );
    const replayed = again.frames.filter((f) => f.seq !== undefined);
    expect(replayed.map((f) => (f.data as { message: { body_text: string } }).message.body_text)).toEqual([
      "second answer",
      "third answer",
    ]);
    expect(JSON.stringify(again.frames)).not.toContain("internal while away");
  });

  test("an agent's gateway token or a forged one is refused on the widget endpoint, before any upgrade", async () => {
    const w = await createWorkspaceWithOwner(desk);
    const res = await desk.api("POST", "/v1/realtime/token", { headers: w.owner.headers });
    const agentToken = connect(`${desk.url.replace(/^http/, "ws")}/v1/widget/realtime?token=${res.body.token}`);
    open.push(agentToken);
    expect(agentToken.opened).rejects.toThrow("socket error");
    const forged = connect(`${desk.url.replace(/^http/, "ws")}/v1/widget/realtime?token=eyJhbGciOiJub25lIn0.e30.`);
    open.push(forged);
    expect(forged.opened).rejects.toThrow("socket error");
    await Promise.all([agentToken.closed, forged.closed]);
    expect([...agentToken.frames, ...forged.frames]).toEqual([]);
  });
});
