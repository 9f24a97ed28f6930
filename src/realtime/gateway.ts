import type { Server, ServerWebSocket, WebSocketHandler } from "bun";
import { SCOPES, type Role, type Scope } from "../auth/context";
import { onAccessEnded, type AccessEnded } from "../auth/session-signals";
import type { Db } from "../db/database";
import { untilDurable } from "../db/tx";
import { onEventsCommitted } from "../events/bus";
import {
  contactTopic,
  hiddenStandIn,
  personOf,
  teamTopic,
  userTopic,
  workspaceTopic,
  type Envelope,
  type StoredEvent,
} from "../events/envelope";
import type { EventCatalogue } from "../events/catalogue";
import { replayEvents } from "../events/events.routes";
import { mayReadEvent, type ReadGrant } from "../events/visibility";
import type { Logger } from "../lib/logger";
import type { TokenService } from "../auth/tokens";
import { incrementCounter, socketClosed, socketOpened, type MetricSource } from "../metrics/metrics";
import { createPresence } from "./presence";
import { CLOSE, type AgentClaims, type WidgetClaims } from "./realtime.protocol";
import type { Clock } from "../lib/clock";
import type { Config } from "../config/config";
import { DeskError, unauthorized } from "../lib/errors";
import { errorResponse } from "../http/respond";
import { createSocketCounter, globalSocketCap, openFileLimit, type SocketCap } from "./socket-limits";

/** Frames a socket may send before its admission completes; more is misbehaviour. */
const MAX_EARLY_FRAMES = 16;

type SocketData = {
  kind: "agent" | "widget";
  since: number | null;
  /** The caps this socket counts under, released once when it closes (null: released or never counted). */
  caps: SocketCap[] | null;
  ready: boolean;
  closed: boolean;
  workspaceId: string;
  userId: string | null;
  sessionId: string | null;
  apiKeyId: string | null;
  /** What the holder may read now: read from the database at admission and on every grant change, never from the token. */
  allTeams: boolean;
  teams: string[];
  /** An API key's scopes (its events are filtered one by one); null for people. */
  scopes: Scope[] | null;
  /** Frames that arrived while admission was still reading the grants: handled once it is done. */
  early: Array<string | Buffer>;
  /** Topics served from our own index (user:, contact:), not Bun's pub/sub. */
  ownTopics: string[];
};
type Socket = ServerWebSocket<SocketData>;
type PublicEventRow = Omit<Envelope, "topics" | "data"> & { topics: string; data: string };

export const AGENT_PATH = "/v1/realtime";
export const WIDGET_PATH = "/v1/widget/realtime";
const BAD_TOKEN = "The gateway token is invalid or expired: ask for a fresh one.";
/** A socket whose unsent data passes this is a slow consumer and is dropped. */
export const MAX_BUFFERED_BYTES = 1024 * 1024;
const MAX_FRAME_BYTES = 4096;
const MAX_REPLAY = 5000;

/**
 * The WebSocket gateway. Agents join workspace:<wid>, user:<uid> and the private-team topics they
 * may see; widget visitors join only contact:<wid>:<cid> and get only public events. Committed
 * events fan out once per socket: Bun's pub/sub for the main topic, our own index for extra topics
 * and for the `event.hidden` stand-ins of private-team events.
 */
/**
 * What the gateway asks the features that own members, teams, API keys and the stored seq counters
 * (machinery reads no feature table): the composition root passes their public lookups in.
 */
export type GatewayLookups = {
  memberRole(workspaceId: string, userId: string): Role | null;
  privateTeams(workspaceId: string, userId: string): string[];
  /** The scopes (JSON text) of a key still usable at `now` in the workspace, or null. */
  liveKeyScopes(apiKeyId: string, workspaceId: string, now: string): string | null;
  /** Each workspace's last stored event seq (`live`: deleted workspaces left out). */
  storedSeqs(live: boolean): Array<{ id: string; event_seq: number }>;
  /** The contact of a live chat ticket of the workspace (who hears an agent typing there), or null. */
  chatContactOf(workspaceId: string, ticketId: string): string | null;
  /** What a widget visitor receives of a public event (agent-only fields left out), or null for nothing. */
  visitorView(envelope: Envelope): Envelope | null;
};

export function createRealtimeGateway(deps: {
  db: Db;
  clock: Clock;
  tokens: TokenService;
  logger: Logger;
  lookups: GatewayLookups;
  events: Pick<EventCatalogue, "readScopeOf">;
  config: Pick<Config, "realtimeLimits">;
  /** The process's open-file limit (tests pass one; default: read from the system). */
  fdLimit?: number;
}) {
  const limits = deps.config.realtimeLimits;
  const counter = createSocketCounter(globalSocketCap(limits, deps.fdLimit ?? openFileLimit()));
  const { memberRole, privateTeams, liveKeyScopes, storedSeqs, chatContactOf, visitorView } = deps.lookups;
  const log = deps.logger.child({ subsystem: "realtime" });
  const sqlite = deps.db.$client;
  let server: Server<unknown> | null = null;
  const sockets = new Set<Socket>();
  const byWorkspace = new Map<string, Set<Socket>>();
  /** API keys' sockets, which join no Bun topic: each event is checked against their scopes. */
  const keysByWorkspace = new Map<string, Set<Socket>>();
  const byOwnTopic = new Map<string, Set<Socket>>();
  const published = new Map<string, number>(storedSeqs(false).map((r) => [r.id, r.event_seq]));

  /** A visitor's missed public events: those of the workspace after `since` that went to their contact topic. */
  const publicSince = sqlite.query<PublicEventRow, [string, number, string, number]>(
    "SELECT id, seq, workspace_id, type, visibility, topics, data, occurred_at FROM events WHERE workspace_id = ? AND seq > ? AND visibility = 'public' AND instr(topics, ?) > 0 ORDER BY seq LIMIT ?",
  );
  const sessionLive = sqlite.query<{ ok: number }, [string, string, string]>(
    "SELECT 1 AS ok FROM sessions WHERE id = ? AND user_id = ? AND revoked_at IS NULL AND expires_at > ?",
  );

  const addTo = (map: Map<string, Set<Socket>>, key: string, ws: Socket) => {
    let set = map.get(key);
    if (!set) {
      set = new Set();
      map.set(key, set);
    }
    set.add(ws);
  };
  const removeFrom = (map: Map<string, Set<Socket>>, key: string, ws: Socket) => {
    const set = map.get(key);
    set?.delete(ws);
    if (set && set.size === 0) map.delete(key);
  };

  /**
   * The holder's grants as they are now (null: access ended). People: admins and owners see every
   * private team, others their own. Keys: their current scopes; they see private teams as admins do,
   * but only events their scopes cover (src/events/visibility.ts).
   */
  function currentGrants(data: SocketData): Pick<SocketData, "allTeams" | "teams" | "scopes"> | null {
    const now = deps.clock.now().toISOString();
    if (data.apiKeyId) {
      const stored = liveKeyScopes(data.apiKeyId, data.workspaceId, now);
      if (stored === null) return null;
      const scopes = (JSON.parse(stored) as string[]).filter((s): s is Scope =>
        (SCOPES as readonly string[]).includes(s),
      );
      return { allTeams: true, teams: [], scopes };
    }
    if (!data.userId || !data.sessionId || !sessionLive.get(data.sessionId, data.userId, now)) return null;
    const role = memberRole(data.workspaceId, data.userId);
    if (!role) return null;
    if (role === "admin" || role === "owner") return { allTeams: true, teams: [], scopes: null };
    return {
      allTeams: false,
      teams: privateTeams(data.workspaceId, data.userId),
      scopes: null,
    };
  }

  const grantOf = (data: SocketData): ReadGrant => ({
    scopes: data.scopes,
    visibleTeams: data.allTeams ? "all" : data.teams,
    person: data.userId,
  });

  /**
   * Joins the Bun topics matching the grants, leaving the ones no longer granted. People join the
   * workspace topic and the private teams they are in (admins get every team's events through
   * publish's own loop); keys join no topic: publish checks each event against their scopes.
   */
  function applyGrants(ws: Socket, grants: Pick<SocketData, "allTeams" | "teams" | "scopes">): void {
    const data = ws.data;
    const joined = new Set(data.kind === "agent" && data.scopes === null && !data.allTeams ? data.teams : []);
    Object.assign(data, grants);
    const wanted = new Set(grants.scopes === null && !grants.allTeams ? grants.teams : []);
    for (const team of joined) if (!wanted.has(team)) ws.unsubscribe(teamTopic(data.workspaceId, team));
    for (const team of wanted) if (!joined.has(team)) ws.subscribe(teamTopic(data.workspaceId, team));
    const workspace = workspaceTopic(data.workspaceId);
    if (grants.scopes === null) ws.subscribe(workspace);
    else ws.unsubscribe(workspace);
  }

  /** After a role or private-team change: re-read the grants of an admitted socket, or close it when access ended. */
  function rescope(ws: Socket): void {
    if (!ws.data.ready || ws.data.closed || ws.data.kind !== "agent") return;
    const grants = currentGrants(ws.data);
    if (!grants) return shut(ws, CLOSE.accessEnded);
    applyGrants(ws, grants);
  }

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
    // The token was verified before the upgrade. The replay reads this connection's view, which includes
    // the turn's changes not committed yet (group commit); those are published live once committed. Wait
    // until none are pending, so each event reaches the socket once: by the replay if committed before,
    // live if after.
    for (let durable = untilDurable(deps.db, true); durable; durable = untilDurable(deps.db, true))
      await durable.catch(() => undefined);
    if (data.closed) return;
    // Synchronous from here: no committed event or grant change can slip between reading the
    // grants, the replay and the subscription.
    if (data.kind === "agent") {
      const grants = currentGrants(data);
      if (!grants) return shut(ws, CLOSE.accessEnded);
      applyGrants(ws, grants);
      addTo(byWorkspace, data.workspaceId, ws);
      if (data.scopes !== null) addTo(keysByWorkspace, data.workspaceId, ws);
    }
    for (const topic of data.ownTopics) addTo(byOwnTopic, topic, ws);
    data.ready = true;
    if (data.since !== null) {
      if (data.kind === "agent") replay(ws, data.since);
      else replayPublic(ws, data.since);
    }
    for (const frame of data.early.splice(0)) if (!data.closed) onFrame(ws, frame);
  }

  function replay(ws: Socket, since: number): void {
    const ctx = { workspaceId: ws.data.workspaceId, ...grantOf(ws.data) };
    let cursor = since;
    let sent = 0;
    for (;;) {
      const page = replayEvents(deps.db, ctx, cursor, 1000, deps.events.readScopeOf);
      for (const envelope of page.data) send(ws, JSON.stringify(envelope));
      sent += page.data.length;
      if (!page.next_cursor) return;
      if (sent >= MAX_REPLAY) return shut(ws, CLOSE.replayTooLarge);
      cursor = Number(page.next_cursor);
    }
  }

  /** A widget socket's replay: public events of its own contact topic only, seen as visitors see them. */
  function replayPublic(ws: Socket, since: number): void {
    const topic = ws.data.ownTopics[0]!;
    const rows = publicSince.all(ws.data.workspaceId, since, JSON.stringify(topic), MAX_REPLAY + 1);
    if (rows.length > MAX_REPLAY) return shut(ws, CLOSE.replayTooLarge);
    for (const row of rows) {
      const topics = JSON.parse(row.topics) as string[];
      if (!topics.includes(topic)) continue;
      const view = visitorView({
        id: row.id,
        seq: row.seq,
        workspace_id: row.workspace_id,
        type: row.type,
        visibility: row.visibility,
        topics,
        data: JSON.parse(row.data) as Record<string, unknown>,
        occurred_at: row.occurred_at,
      });
      if (view) send(ws, JSON.stringify(view));
    }
  }

  function onFrame(ws: Socket, message: string | Buffer): void {
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
      if (!presence.update(ws, frame as { ticket_id?: unknown; state?: unknown })) shut(ws, CLOSE.badFrame);
      return;
    }
    if (type === "chat.typing") {
      if (typeof ticketId !== "string" || ticketId.length === 0 || ticketId.length > 100)
        return shut(ws, CLOSE.badFrame);
      // Relayed, never stored: no seq, never reaches webhooks. A visitor speaks only about their own
      // chats; an agent typing on a chat ticket is also told to that ticket's contact (and nothing more).
      const contactId = chatContactOf(ws.data.workspaceId, ticketId);
      const visitorId = ws.data.kind === "widget" ? ws.data.ownTopics[0]!.split(":")[2]! : null;
      if (visitorId !== null && contactId !== visitorId) return;
      const occurredAt = deps.clock.now().toISOString();
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
      else server?.publish(topic, relay);
      if (ws.data.kind === "agent" && contactId !== null && ws.data.scopes === null) {
        const toVisitor = JSON.stringify({
          type: "chat.typing",
          ticket_id: ticketId,
          from: "agent",
          occurred_at: occurredAt,
        });
        for (const visitor of byOwnTopic.get(contactTopic(ws.data.workspaceId, contactId)) ?? [])
          if (visitor.data.kind === "widget" && visitor.data.ready) send(visitor, toVisitor);
      }
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
      if (
        !byWorkspace.get(event.workspace_id)?.size &&
        !event.topics.some((topic, i) => i > 0 && byOwnTopic.get(topic)?.size)
      )
        continue;
      const { private_team_id: teamId, ...envelope } = event;
      const full = JSON.stringify(envelope);
      const main = envelope.topics[0] ?? workspaceTopic(event.workspace_id);
      // A personal event (a notification) goes in full to its person's sockets of this workspace only.
      const person = personOf(envelope);
      if (!person) server.publish(main, full);
      const reached = new Set<Socket>();
      let standIn: string | null = null;
      const hidden = () => (standIn ??= JSON.stringify(hiddenStandIn(envelope as Envelope)));
      let visitorFrame: string | null | undefined;
      // Sockets the Bun topic did not reach: every socket of the workspace for a private team's or
      // a personal event, else only API keys'. Each gets the event in full or as a stand-in, per its grants.
      for (const ws of (teamId || person ? byWorkspace : keysByWorkspace).get(event.workspace_id) ?? []) {
        if (!ws.data.ready || ws.isSubscribed(main)) continue;
        reached.add(ws);
        send(ws, mayReadEvent(grantOf(ws.data), event, deps.events.readScopeOf) ? full : hidden());
      }
      for (const topic of envelope.topics.slice(1)) {
        for (const ws of byOwnTopic.get(topic) ?? []) {
          if (!ws.data.ready || reached.has(ws) || ws.isSubscribed(main)) continue;
          if (ws.data.kind === "widget") {
            if (envelope.visibility !== "public" || ws.data.workspaceId !== event.workspace_id) continue;
            if (visitorFrame === undefined) {
              const view = visitorView(envelope as Envelope);
              visitorFrame = view ? JSON.stringify(view) : null;
            }
            reached.add(ws);
            if (visitorFrame) send(ws, visitorFrame);
            continue;
          }
          if (
            teamId &&
            !(ws.data.allTeams && ws.data.workspaceId === event.workspace_id) &&
            !ws.data.teams.includes(teamId)
          )
            continue;
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
    if (signal.kind === "grants") {
      for (const ws of byWorkspace.get(signal.workspaceId) ?? [])
        if (signal.userId === null || ws.data.userId === signal.userId) rescope(ws);
      return;
    }
    if (signal.kind === "api_key") return closeWhere((d) => d.apiKeyId === signal.apiKeyId);
    if (signal.kind === "membership")
      return closeWhere((d) => d.userId === signal.userId && d.workspaceId === signal.workspaceId);
    const ids = signal.sessionIds;
    closeWhere(
      (d) => d.userId === signal.userId && (ids === "all" || (d.sessionId !== null && ids.includes(d.sessionId))),
    );
  }

  function releaseCaps(data: SocketData): void {
    if (!data.caps) return;
    counter.release(data.caps);
    data.caps = null;
  }

  function refuse(error: DeskError, why: "token" | "cap"): Response {
    incrementCounter("desk_realtime_refused_total", { reason: why });
    return errorResponse(error);
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
      releaseCaps(ws.data);
      if (!sockets.delete(ws)) return;
      socketClosed(ws.data.kind);
      removeFrom(byWorkspace, ws.data.workspaceId, ws);
      removeFrom(keysByWorkspace, ws.data.workspaceId, ws);
      for (const topic of ws.data.ownTopics) removeFrom(byOwnTopic, topic, ws);
      presence.leave(ws);
    },
  };

  return {
    websocket,
    attach(target: Server<unknown>) {
      server = target;
    },
    /**
     * HttpOptions.upgrade: takes the two gateway paths, leaves every other request alone. The token is
     * checked and the socket counted against its caps before upgrading: a refused caller never holds
     * a descriptor beyond its HTTP request (401 for a bad token, 429 over a cap).
     */
    async upgrade(request: Request, target: Server<unknown>): Promise<Response | undefined | "upgraded"> {
      const url = new URL(request.url);
      const kind = url.pathname === AGENT_PATH ? "agent" : url.pathname === WIDGET_PATH ? "widget" : null;
      if (!kind) return undefined;
      const sinceText = url.searchParams.get("since");
      const since =
        sinceText === null || sinceText === "" ? null : /^\d{1,15}$/.test(sinceText) ? Number(sinceText) : NaN;
      if (Number.isNaN(since)) {
        return Response.json(
          {
            status: 422,
            code: "validation_failed",
            detail: "since must be a sequence number",
            errors: [{ location: "query.since", message: "expected a non-negative integer" }],
          },
          { status: 422 },
        );
      }
      const data: SocketData = {
        kind,
        since,
        caps: null,
        ready: false,
        closed: false,
        workspaceId: "",
        userId: null,
        sessionId: null,
        apiKeyId: null,
        allTeams: false,
        teams: [],
        scopes: null,
        ownTopics: [],
        early: [],
      };
      const token = url.searchParams.get("token") ?? "";
      const caps: SocketCap[] = [];
      if (kind === "widget") {
        const claims = await deps.tokens.verify<WidgetClaims>(token, "widget_ws");
        if (!claims?.wid || !claims.cid) return refuse(unauthorized(BAD_TOKEN), "token");
        data.workspaceId = claims.wid;
        data.ownTopics = [contactTopic(claims.wid, claims.cid)];
        caps.push(
          { key: `t:${token}`, max: limits.widgetPerToken, what: "per gateway token" },
          { key: `v:${claims.wid}:${claims.cid}`, max: limits.widgetPerVisitor, what: "per visitor" },
        );
        const ip = target.requestIP(request)?.address;
        if (ip) caps.push({ key: `a:${ip}`, max: limits.widgetPerAddress, what: "per client address" });
      } else {
        const claims = await deps.tokens.verify<AgentClaims>(token, "ws");
        if (!claims?.wid || (!claims.key && !claims.sub)) return refuse(unauthorized(BAD_TOKEN), "token");
        // The token names who connects; what they may see is read when they join (admit).
        Object.assign(data, {
          workspaceId: claims.wid,
          userId: claims.key ? null : claims.sub,
          sessionId: claims.sid ?? null,
          apiKeyId: claims.key ?? null,
        });
        data.ownTopics = claims.key ? [] : [userTopic(claims.sub!)];
        // A signed-out session or a revoked key gets no socket at all, rather than one closed at once.
        if (!currentGrants(data)) return refuse(unauthorized("Access ended: sign in again."), "token");
        const holder = claims.key ? `k:${claims.key}` : claims.sid ? `s:${claims.sid}` : `u:${claims.sub}`;
        caps.push({
          key: holder,
          max: limits.perSession,
          what: claims.key ? "per API key" : "per sign-in session",
        });
      }
      try {
        counter.take(caps);
      } catch (error) {
        if (error instanceof DeskError) return refuse(error, "cap");
        throw error;
      }
      data.caps = caps;
      if (target.upgrade(request, { data })) return "upgraded";
      releaseCaps(data);
      return Response.json(
        { status: 400, code: "bad_request", detail: "expected a WebSocket upgrade" },
        { status: 400 },
      );
    },
    connected: () => sockets.size,
    metrics: (): MetricSource => {
      return () => {
        let lag = 0;
        for (const row of storedSeqs(true)) lag = Math.max(lag, row.event_seq - (published.get(row.id) ?? 0));
        return [
          {
            name: "desk_event_seq_lag",
            type: "gauge",
            help: "Largest gap between a workspace's stored seq and the last seq published to sockets",
            value: lag,
          },
          {
            name: "desk_realtime_present_sockets",
            type: "gauge",
            help: "Sockets announcing presence on a ticket (collision detection)",
            value: presence.size(),
          },
        ];
      };
    },
    stop() {
      for (const off of unsubscribe) off();
      for (const ws of sockets) shut(ws, CLOSE.goingAway);
    },
  };
}
