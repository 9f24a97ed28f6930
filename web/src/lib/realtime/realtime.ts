import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef, useState } from "react";
import { api } from "../api/client";
import { presenceSocket, receiveChatTyping, receivePresence } from "./presence";
import { useAuth } from "../api/session";
import type { Envelope } from "../api/types";
import { applyEvent, type Resource } from "./invalidation";

export type LiveState = "connecting" | "live" | "offline";

/**
 * Keeps one WebSocket to the gateway for the selected workspace; reconnects with backoff and
 * replays what was missed with `since=<seq>`. Each event goes through the union of the resources'
 * rules (`resources` is the app's fixed list, so it is read through a ref and never reconnects).
 */
export function useRealtime(resources: readonly Resource[]): LiveState {
  const auth = useAuth();
  const client = useQueryClient();
  const [state, setState] = useState<LiveState>("connecting");
  const rules = useRef(resources);
  rules.current = resources;
  const workspaceId = auth.workspaceId;
  const signedIn = !!auth.accessToken;

  useEffect(() => {
    if (!signedIn || !workspaceId) return;
    let socket: WebSocket | null = null;
    let stopped = false;
    let lastSeq: number | null = null;
    let attempts = 0;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let ping: ReturnType<typeof setInterval> | undefined;

    const connect = async () => {
      setState("connecting");
      try {
        const { url } = await api<{ token: string; url: string }>("/realtime/token", { method: "POST", body: {} });
        if (stopped) return;
        const target = new URL(url, location.href);
        // The gateway lives on this same origin; DESK_BASE_URL may name another host in development.
        target.protocol = location.protocol === "https:" ? "wss:" : "ws:";
        target.host = location.host;
        if (lastSeq !== null) target.searchParams.set("since", String(lastSeq));
        socket = new WebSocket(target);
        socket.onopen = () => {
          attempts = 0;
          setState("live");
          presenceSocket(socket);
          ping = setInterval(
            () => socket?.readyState === WebSocket.OPEN && socket.send(JSON.stringify({ type: "ping" })),
            25_000,
          );
        };
        socket.onmessage = (message) => {
          const event = JSON.parse(String(message.data)) as
            | Envelope
            | { type: "pong" }
            | { type: "presence"; ticket_id?: unknown; viewers?: unknown }
            | { type: "chat.typing"; ticket_id?: unknown; contact_id?: unknown };
          if (event.type === "presence") return receivePresence(event as { ticket_id?: unknown; viewers?: unknown });
          if (event.type === "chat.typing")
            return receiveChatTyping(event as { ticket_id?: unknown; contact_id?: unknown });
          if (!("seq" in event)) return;
          if (typeof event.seq === "number") lastSeq = Math.max(lastSeq ?? 0, event.seq);
          applyEvent(client, rules.current, event);
        };
        socket.onclose = () => {
          clearInterval(ping);
          presenceSocket(null);
          if (!stopped) retry();
        };
      } catch {
        retry();
      }
    };
    const retry = () => {
      setState("offline");
      attempts++;
      timer = setTimeout(connect, Math.min(30_000, 500 * 2 ** attempts));
    };
    connect();
    return () => {
      stopped = true;
      clearTimeout(timer);
      clearInterval(ping);
      socket?.close();
    };
  }, [signedIn, workspaceId, client]);

  return state;
}
