import { useSyncExternalStore } from "react";

/**
 * Collision detection over the realtime socket: this tab says which ticket it has open (and
 * whether the agent is typing); the gateway answers the roster of everyone on that ticket. Kept
 * outside React Query because it is ephemeral: never stored, gone with the socket.
 */
export type Viewer = { user_id: string; name: string; state: "viewing" | "typing" };
type Intent = { ticketId: string; state: Viewer["state"] } | null;

let socket: WebSocket | null = null;
let intent: Intent = null;
let rosters = new Map<string, Viewer[]>();
const listeners = new Set<() => void>();
const notify = () => {
  for (const l of listeners) l();
};

function sendIntent() {
  if (socket?.readyState !== WebSocket.OPEN) return;
  socket.send(
    JSON.stringify({ type: "presence", ticket_id: intent?.ticketId ?? null, state: intent?.state ?? "viewing" }),
  );
}

/** The realtime hook hands over each new open socket (null when it closes): presence is said again after a reconnect. */
export function presenceSocket(ws: WebSocket | null) {
  socket = ws;
  if (ws) sendIntent();
  else if (rosters.size) {
    rosters = new Map();
    notify();
  }
}

/** A roster frame from the gateway. */
export function receivePresence(frame: { ticket_id?: unknown; viewers?: unknown }) {
  if (typeof frame.ticket_id !== "string" || !Array.isArray(frame.viewers)) return;
  rosters = new Map(rosters).set(frame.ticket_id, frame.viewers as Viewer[]);
  notify();
}

/** Says which ticket this tab shows (null: none) and whether the agent is typing there. */
export function announce(ticketId: string | null, state: Viewer["state"] = "viewing") {
  if (ticketId === null) {
    if (intent === null) return;
    const left = intent.ticketId;
    intent = null;
    rosters = new Map(rosters);
    rosters.delete(left);
    notify();
  } else {
    if (intent?.ticketId === ticketId && intent.state === state) return;
    intent = { ticketId, state };
  }
  sendIntent();
}

let idle: ReturnType<typeof setTimeout> | undefined;
/** Typing on a ticket: "typing" now, back to "viewing" after a few quiet seconds. */
export function typingOn(ticketId: string) {
  announce(ticketId, "typing");
  clearTimeout(idle);
  idle = setTimeout(() => intent?.ticketId === ticketId && announce(ticketId, "viewing"), 4000);
}

/** The other people on a ticket right now (this user's own tabs left out). */
export function useViewers(ticketId: string | undefined, selfId: string | undefined): Viewer[] {
  const all = useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => (ticketId ? rosters.get(ticketId) : undefined),
  );
  return (all ?? []).filter((v) => v.user_id !== selfId);
}

/**
 * Chat typing (the widget's visitor on a chat ticket, and this agent there): relayed by the gateway,
 * never stored. A visitor's `chat.typing` shows for a few seconds after the last one.
 */
const visitorTyping = new Map<string, ReturnType<typeof setTimeout>>();
const typingListeners = new Set<() => void>();
const typingChanged = () => {
  for (const l of typingListeners) l();
};

/** A `chat.typing` frame from the gateway: only a visitor's (contact_id set) is shown to agents. */
export function receiveChatTyping(frame: { ticket_id?: unknown; contact_id?: unknown }) {
  if (typeof frame.ticket_id !== "string" || typeof frame.contact_id !== "string") return;
  const ticketId = frame.ticket_id;
  clearTimeout(visitorTyping.get(ticketId));
  visitorTyping.set(
    ticketId,
    setTimeout(() => {
      visitorTyping.delete(ticketId);
      typingChanged();
    }, 5000),
  );
  typingChanged();
}

/** Whether the visitor of this chat ticket is typing now. */
export function useVisitorTyping(ticketId: string): boolean {
  return useSyncExternalStore(
    (listener) => {
      typingListeners.add(listener);
      return () => typingListeners.delete(listener);
    },
    () => visitorTyping.has(ticketId),
  );
}

let lastChatTyping = 0;
/** Tells the chat's visitor this agent is typing (at most every 2.5 seconds). */
export function chatTypingOn(ticketId: string) {
  const now = Date.now();
  if (socket?.readyState !== WebSocket.OPEN || now - lastChatTyping < 2500) return;
  lastChatTyping = now;
  socket.send(JSON.stringify({ type: "chat.typing", ticket_id: ticketId }));
}
