import { type QueryClient, useQueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { api } from "../api/client";
import { presenceSocket, receivePresence } from "./presence";
import { useAuth } from "../api/session";
import type { Envelope, Ticket } from "../api/types";

export type LiveState = "connecting" | "live" | "offline";

/** Which cached queries an event makes stale: the cache is the single place the UI reads from. */
export function applyEvent(client: QueryClient, event: Envelope) {
  const [resource] = event.type.split(".");
  const data = event.data;
  switch (resource) {
    case "ticket": {
      const ticket = data.ticket as Ticket | undefined;
      if (ticket) {
        client.setQueryData(["ticket", String(ticket.number)], ticket);
        client.setQueryData(["ticket", ticket.id], ticket);
      }
      client.invalidateQueries({ queryKey: ["tickets"] });
      client.invalidateQueries({ queryKey: ["counts"] });
      client.invalidateQueries({ queryKey: ["contact-tickets"] });
      break;
    }
    case "message":
    case "activity":
      client.invalidateQueries({ queryKey: ["timeline", data.ticket_id as string] });
      client.invalidateQueries({ queryKey: ["tickets"] });
      break;
    case "contact":
    case "company":
      client.invalidateQueries({ queryKey: [`${resource === "contact" ? "contacts" : "companies"}`] });
      client.invalidateQueries({ queryKey: [resource] });
      break;
    case "tag":
      client.invalidateQueries({ queryKey: ["tags"] });
      break;
    case "tag_group":
      client.invalidateQueries({ queryKey: ["tag-groups"] });
      break;
    case "custom_field":
      client.invalidateQueries({ queryKey: ["custom-fields"] });
      break;
    case "member":
      client.invalidateQueries({ queryKey: ["members"] });
      client.invalidateQueries({ queryKey: ["me"] });
      break;
    case "team":
    case "view":
    case "saved_reply":
    case "mailbox":
    case "webhook":
    case "workspace": {
      const key = {
        team: "teams",
        view: "views",
        saved_reply: "saved-replies",
        mailbox: "mailboxes",
        webhook: "webhooks",
        workspace: "workspace",
      }[resource];
      client.invalidateQueries({ queryKey: [key] });
      if (resource === "view") client.invalidateQueries({ queryKey: ["counts"] });
      break;
    }
    case "event":
      // A private team's event we may not see in full: refresh the lists that could hold it.
      client.invalidateQueries({ queryKey: ["tickets"] });
      client.invalidateQueries({ queryKey: ["counts"] });
      break;
  }
}

/**
 * Keeps one WebSocket to the gateway for the selected workspace; reconnects with backoff and
 * replays what was missed with `since=<seq>`.
 */
export function useRealtime(): LiveState {
  const auth = useAuth();
  const client = useQueryClient();
  const [state, setState] = useState<LiveState>("connecting");
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
            | { type: "presence"; ticket_id?: unknown; viewers?: unknown };
          if (event.type === "presence") return receivePresence(event as { ticket_id?: unknown; viewers?: unknown });
          if (!("seq" in event)) return;
          if (typeof event.seq === "number") lastSeq = Math.max(lastSeq ?? 0, event.seq);
          applyEvent(client, event);
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
