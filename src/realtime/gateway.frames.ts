import { contactTopic, workspaceTopic } from "../events/envelope";
import { send, shut, type Gateway, type Socket } from "./gateway.state";
import { CLOSE } from "./realtime.protocol";

/** Frames a socket may send before its admission completes; more is misbehaviour. */
const MAX_EARLY_FRAMES = 16;
const MAX_FRAME_BYTES = 4096;

/** A frame from a client: ping, presence (agents) or chat typing; anything else closes the socket. */
export async function onFrame(gateway: Gateway, ws: Socket, message: string | Buffer): Promise<void> {
  // A client may speak as soon as the socket opens; until its grants are read, what it says
  // (presence on a private team's ticket) cannot be judged, so it waits rather than being lost.
  if (!ws.data.ready) {
    if (ws.data.early.length >= MAX_EARLY_FRAMES) return shut(ws, CLOSE.badFrame);
    ws.data.early.push(message);
    return;
  }
  const text = typeof message === "string" ? message : null;
  if (text === null || text.length > MAX_FRAME_BYTES) return shut(ws, CLOSE.badFrame);
  let frame: unknown;
  try {
    frame = JSON.parse(text);
  } catch {
    return shut(ws, CLOSE.badFrame);
  }
  if (!frame || typeof frame !== "object" || Array.isArray(frame)) return shut(ws, CLOSE.badFrame);
  const { type, ticket_id: ticketId } = frame as { type?: unknown; ticket_id?: unknown };
  if (type === "ping") return send(ws, '{"type":"pong"}');
  if (type === "presence" && ws.data.kind === "agent") {
    if (!(await gateway.presence.update(ws, frame as { ticket_id?: unknown; state?: unknown })))
      shut(ws, CLOSE.badFrame);
    return;
  }
  if (type === "chat.typing") return await relayTyping(gateway, ws, ticketId);
  shut(ws, CLOSE.unknownType);
}

async function relayTyping(gateway: Gateway, ws: Socket, ticketId: unknown): Promise<void> {
  if (typeof ticketId !== "string" || ticketId.length === 0 || ticketId.length > 100) return shut(ws, CLOSE.badFrame);
  // Relayed, never stored: no seq, never reaches webhooks. A visitor speaks only about their own
  // chats; an agent typing on a chat ticket is also told to that ticket's contact (and nothing more).
  const contactId = await gateway.deps.lookups.chatContactOf(ws.data.workspaceId, ticketId);
  const visitorId = ws.data.kind === "widget" ? ws.data.ownTopics[0]!.split(":")[2]! : null;
  if (visitorId !== null && contactId !== visitorId) return;
  const occurredAt = gateway.deps.clock.now().toISOString();
  const relay = JSON.stringify({
    type: "chat.typing",
    workspace_id: ws.data.workspaceId,
    ticket_id: ticketId,
    user_id: ws.data.userId,
    contact_id: visitorId,
    occurred_at: occurredAt,
  });
  const topic = workspaceTopic(ws.data.workspaceId);
  if (ws.data.kind === "agent") ws.publish(topic, relay);
  else gateway.server?.publish(topic, relay);
  if (ws.data.kind === "agent" && contactId !== null && ws.data.scopes === null) {
    const toVisitor = JSON.stringify({
      type: "chat.typing",
      ticket_id: ticketId,
      from: "agent",
      occurred_at: occurredAt,
    });
    for (const visitor of gateway.byOwnTopic.get(contactTopic(ws.data.workspaceId, contactId)) ?? [])
      if (visitor.data.kind === "widget" && visitor.data.ready) send(visitor, toVisitor);
  }
}
