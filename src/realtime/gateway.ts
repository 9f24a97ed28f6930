import type { Server, ServerWebSocket, WebSocketHandler } from "bun";
import { onAccessEnded, type AccessEnded } from "../auth/session-signals";
import type { Db } from "../db/database";
import { hasPendingChanges, untilCommitted } from "../db/tx";
import { onEventsCommitted } from "../events/bus";
import { contactTopic, hiddenStandIn, teamTopic, userTopic, workspaceTopic, type Envelope, type StoredEvent } from "../events/envelope";
import { replayEvents } from "../events/events.routes";
import type { Logger } from "../lib/logger";
import type { TokenService } from "../auth/tokens";
import { socketClosed, socketOpened, type MetricSource } from "../metrics/metrics";
import { createPresence } from "./presence";
import { CLOSE, type AgentClaims, type WidgetClaims } from "./realtime.protocol";

type SocketData = {
  kind: "agent" | "widget";
  token: string;
  since: number | null;
  ready: boolean;
  closed: boolean;
  workspaceId: string;
  userId: string | null;
  sessionId: string | null;
  apiKeyId: string | null;
  allTeams: boolean;
  teams: string[];
  /** Topics served from our own index (user:, contact:), not Bun's pub/sub. */
  ownTopics: string[];
};
type Socket = ServerWebSocket<SocketData>;

export const AGENT_PATH = "/v1/realtime";
export const WIDGET_PATH = "/v1/widget/realtime";
/** A socket whose unsent data passes this is a slow consumer and is dropped. */
export const MAX_BUFFERED_BYTES = 1024 * 1024;
const MAX_FRAME_BYTES = 4096;
const MAX_REPLAY = 5000;

export type RealtimeGateway = ReturnType<typeof createRealtimeGateway>;

/**
 * The WebSocket gateway. Agents join workspace:<wid>, user:<uid> and the private-team topics they
 * may see; widget visitors join only contact:<wid>:<cid> and get only public events. Committed
 * events fan out once per socket: Bun's pub/sub for the main topic, our own index for extra topics
 * and for the `event.hidden` stand-ins of private-team events.
 */
export function createRealtimeGateway(deps: { db: Db; tokens: TokenService; logger: Logger }) {
  const log = deps.logger.child({ subsystem: "realtime" });
  const sqlite = deps.db.$client;
  let server: Server<unknown> | null = null;
  const sockets = new Set<Socket>();
  const byWorkspace = new Map<string, Set<Socket>>();
  const byOwnTopic = new Map<string, Set<Socket>>();
  const published = new Map<string, number>(
    sqlite.query<{ id: string; event_seq: number }, []>("SELECT id, event_seq FROM workspaces").all().map((r) => [r.id, r.event_seq]),
  );

  const sessionLive = sqlite.query<{ ok: number }, [string, string, string]>(
    "SELECT 1 AS ok FROM sessions WHERE id = ? AND user_id = ? AND revoked_at IS NULL AND expires_at > ?",
  );
  const isMember = sqlite.query<{ ok: number }, [string, string]>("SELECT 1 AS ok FROM members WHERE workspace_id = ? AND user_id = ?");
  const keyLive = sqlite.query<{ ok: number }, [string, string, string]>(
    "SELECT 1 AS ok FROM api_keys WHERE id = ? AND workspace_id = ? AND revoked_at IS NULL AND (expires_at IS NULL OR expires_at > ?)",
  );

  const addTo = (map: Map<string, Set<Socket>>, key: string, ws: Socket) => {
    let set = map.get(key);
    if (!set) map.set(key, (set = new Set()));
    set.add(ws);
  };
  const removeFrom = (map: Map<string, Set<Socket>>, key: string, ws: Socket) => {
    const set = map.get(key);
    set?.delete(ws);
    if (set && set.size === 0) map.delete(key);
  };

  function shut(ws: Socket, close: { code: number; reason: string }): void {
    if (ws.data.closed) return;
    ws.data.closed = true;
    ws.close(close.code, close.reason);
  }

  /** Sends one frame; a consumer that cannot keep up is dropped instead of buffering without bound. */
  function send(ws: Socket, frame: string): void {
    if (ws.data.closed) return;
    const result = ws.send(frame);
    if (result === 0 || ws.getBufferedAmount() > MAX_BUFFERED_BYTES) shut(ws, CLOSE.slowConsumer);
  }

  // Who is on which ticket (collision detection): in memory only, ended when a socket closes.
  const presence = createPresence<Socket>({ sqlite, send });

  async function admit(ws: Socket): Promise<void> {
    const data = ws.data;
    const now = new Date().toISOString();
    if (data.kind === "widget") {
      const claims = await deps.tokens.verify<WidgetClaims>(data.token, "widget_ws");
      if (!claims?.wid || !claims.cid) return shut(ws, CLOSE.badToken);
      data.workspaceId = claims.wid;
      data.ownTopics = [contactTopic(claims.wid, claims.cid)];
    } else {
      const claims = await deps.tokens.verify<AgentClaims>(data.token, "ws");
      if (!claims?.wid) return shut(ws, CLOSE.badToken);
      const live = claims.key
        ? keyLive.get(claims.key, claims.wid, now)
        : claims.sub && claims.sid && sessionLive.get(claims.sid, claims.sub, now) && isMember.get(claims.wid, claims.sub);
      if (!live) return shut(ws, CLOSE.accessEnded);
      Object.assign(data, { workspaceId: claims.wid, userId: claims.sub ?? null, sessionId: claims.sid ?? null, apiKeyId: claims.key ?? null });
      data.allTeams = claims.all_teams === true;
      data.teams = claims.teams ?? [];
      data.ownTopics = claims.sub ? [userTopic(claims.sub)] : [];
    }
    // The replay reads this connection's view, which includes the turn's changes not committed yet
    // (group commit); those are published live once committed. Wait until none are pending, so each
    // event reaches the socket once: by the replay if committed before, live if after.
    while (hasPendingChanges(deps.db)) await untilCommitted(deps.db).catch(() => undefined);
    if (data.closed) return;
    // Synchronous from here: no committed event can slip between the replay and the subscription.
    if (data.kind === "agent") {
      ws.subscribe(workspaceTopic(data.workspaceId));
      for (const team of data.teams) ws.subscribe(teamTopic(data.workspaceId, team));
      addTo(byWorkspace, data.workspaceId, ws);
    }
    for (const topic of data.ownTopics) addTo(byOwnTopic, topic, ws);
    data.ready = true;
    if (data.since !== null && data.kind === "agent") replay(ws, data.since);
  }

  function replay(ws: Socket, since: number): void {
    const ctx = {
      workspaceId: ws.data.workspaceId,
      visibleTeams: ws.data.allTeams ? ("all" as const) : ws.data.teams,
    } as Parameters<typeof replayEvents>[1];
    let cursor = since;
    let sent = 0;
    for (;;) {
      const page = replayEvents(deps.db, ctx, cursor, 1000);
      for (const envelope of page.data) send(ws, JSON.stringify(envelope));
      sent += page.data.length;
      if (!page.next_cursor) return;
      if (sent >= MAX_REPLAY) return shut(ws, CLOSE.replayTooLarge);
      cursor = Number(page.next_cursor);
    }
  }

  function onFrame(ws: Socket, message: string | Buffer): void {
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
      if (!presence.update(ws, frame as { ticket_id?: unknown; state?: unknown })) shut(ws, CLOSE.badFrame);
      return;
    }
    if (type === "chat.typing") {
      if (typeof ticketId !== "string" || ticketId.length === 0 || ticketId.length > 100) return shut(ws, CLOSE.badFrame);
      if (!ws.data.ready) return;
      // Relayed, never stored: no seq, never reaches webhooks.
      const relay = JSON.stringify({
        type: "chat.typing",
        workspace_id: ws.data.workspaceId,
        ticket_id: ticketId,
        user_id: ws.data.userId,
        contact_id: ws.data.kind === "widget" ? ws.data.ownTopics[0]!.split(":")[2] : null,
        occurred_at: new Date().toISOString(),
      });
      const topic = workspaceTopic(ws.data.workspaceId);
      if (ws.data.kind === "agent") ws.publish(topic, relay);
      else server?.publish(topic, relay);
      return;
    }
    shut(ws, CLOSE.unknownType);
  }

  function publish(events: StoredEvent[]): void {
    if (!server) return;
    for (const event of events) {
      published.set(event.workspace_id, Math.max(published.get(event.workspace_id) ?? 0, event.seq));
      // Nobody of that workspace connected and nobody on its extra topics: nothing to serialise
      // (a message event carries its whole body; inbound mail would pay for it on every message).
      if (!byWorkspace.get(event.workspace_id)?.size && !event.topics.some((topic, i) => i > 0 && byOwnTopic.get(topic)?.size)) continue;
      const { private_team_id: teamId, ...envelope } = event;
      const full = JSON.stringify(envelope);
      const main = envelope.topics[0] ?? workspaceTopic(event.workspace_id);
      server.publish(main, full);
      const reached = new Set<Socket>();
      if (teamId) {
        let standIn: string | null = null;
        for (const ws of byWorkspace.get(event.workspace_id) ?? []) {
          if (!ws.data.ready || ws.isSubscribed(main)) continue;
          reached.add(ws);
          if (ws.data.allTeams) send(ws, full);
          else send(ws, (standIn ??= JSON.stringify(hiddenStandIn(envelope as Envelope))));
        }
      }
      for (const topic of envelope.topics.slice(1)) {
        for (const ws of byOwnTopic.get(topic) ?? []) {
          if (!ws.data.ready || reached.has(ws) || ws.isSubscribed(main)) continue;
          if (ws.data.kind === "widget" && (envelope.visibility !== "public" || ws.data.workspaceId !== event.workspace_id)) continue;
          if (teamId && !(ws.data.allTeams && ws.data.workspaceId === event.workspace_id) && !ws.data.teams.includes(teamId)) continue;
          reached.add(ws);
          send(ws, full);
        }
      }
    }
  }

  function closeWhere(match: (data: SocketData) => boolean): void {
    for (const ws of sockets) if (match(ws.data)) shut(ws, CLOSE.accessEnded);
  }

  function onAccess(signal: AccessEnded): void {
    if (signal.kind === "api_key") return closeWhere((d) => d.apiKeyId === signal.apiKeyId);
    if (signal.kind === "membership") return closeWhere((d) => d.userId === signal.userId && d.workspaceId === signal.workspaceId);
    const ids = signal.sessionIds;
    closeWhere((d) => d.userId === signal.userId && (ids === "all" || (d.sessionId !== null && ids.includes(d.sessionId))));
  }

  const unsubscribe = [onEventsCommitted(deps.db, publish), onAccessEnded(deps.db, onAccess)];

  const websocket: WebSocketHandler<SocketData> = {
    backpressureLimit: MAX_BUFFERED_BYTES,
    closeOnBackpressureLimit: true,
    maxPayloadLength: 64 * 1024,
    idleTimeout: 120,
    sendPings: true,
    open(ws) {
      sockets.add(ws);
      socketOpened(ws.data.kind);
      admit(ws).catch((error: unknown) => {
        log.error({ err: error }, "could not admit a socket");
        shut(ws, CLOSE.internal);
      });
    },
    message: onFrame,
    close(ws) {
      ws.data.closed = true;
      if (!sockets.delete(ws)) return;
      socketClosed(ws.data.kind);
      removeFrom(byWorkspace, ws.data.workspaceId, ws);
      for (const topic of ws.data.ownTopics) removeFrom(byOwnTopic, topic, ws);
      presence.leave(ws);
    },
  };

  return {
    websocket,
    attach(target: Server<unknown>) {
      server = target;
    },
    /** HttpOptions.upgrade: takes the two gateway paths, leaves every other request alone. */
    upgrade(request: Request, target: Server<unknown>): Response | undefined | "upgraded" {
      const url = new URL(request.url);
      const kind = url.pathname === AGENT_PATH ? "agent" : url.pathname === WIDGET_PATH ? "widget" : null;
      if (!kind) return undefined;
      const sinceText = url.searchParams.get("since");
      const since = sinceText === null || sinceText === "" ? null : /^\d{1,15}$/.test(sinceText) ? Number(sinceText) : NaN;
      if (Number.isNaN(since)) {
        return Response.json({ status: 422, code: "validation_failed", detail: "since must be a sequence number", errors: [{ location: "query.since", message: "expected a non-negative integer" }] }, { status: 422 });
      }
      const data: SocketData = {
        kind, token: url.searchParams.get("token") ?? "", since, ready: false, closed: false,
        workspaceId: "", userId: null, sessionId: null, apiKeyId: null, allTeams: false, teams: [], ownTopics: [],
      };
      return target.upgrade(request, { data }) ? "upgraded" : Response.json({ status: 400, code: "bad_request", detail: "expected a WebSocket upgrade" }, { status: 400 });
    },
    connected: () => sockets.size,
    metrics: (): MetricSource => {
      const stored = sqlite.query<{ id: string; event_seq: number }, []>("SELECT id, event_seq FROM workspaces WHERE deleted_at IS NULL");
      return () => {
        let lag = 0;
        for (const row of stored.all()) lag = Math.max(lag, row.event_seq - (published.get(row.id) ?? 0));
        return [
          { name: "desk_event_seq_lag", type: "gauge", help: "Largest gap between a workspace's stored seq and the last seq published to sockets", value: lag },
          { name: "desk_realtime_present_sockets", type: "gauge", help: "Sockets announcing presence on a ticket (collision detection)", value: presence.size() },
        ];
      };
    },
    stop() {
      for (const off of unsubscribe) off();
      for (const ws of sockets) shut(ws, CLOSE.goingAway);
    },
  };
}
