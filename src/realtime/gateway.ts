import type { Server, WebSocketHandler } from "bun";
import { onAccessEnded } from "../auth/session-signals";
import { onEventsCommitted } from "../events/bus";
import { FEED_ON, startEventFeed } from "../events/feed";
import { socketClosed, socketOpened, type MetricSource } from "../metrics/metrics";
import { admit } from "./gateway.admit";
import { onFrame } from "./gateway.frames";
import { grantsReader, onAccessSignal } from "./gateway.grants";
import { publishCommitted } from "./gateway.publish";
import {
  MAX_BUFFERED_BYTES,
  removeFrom,
  send,
  shut,
  type Gateway,
  type GatewayDeps,
  type Socket,
  type SocketData,
} from "./gateway.state";
import { releaseCaps, upgradeSocket } from "./gateway.upgrade";
import { createPresence } from "./presence";
import { CLOSE } from "./realtime.protocol";
import { createSocketCounter, globalSocketCap, openFileLimit } from "./socket-limits";

export { WIDGET_PATH } from "./gateway.state";

/**
 * The WebSocket gateway. Agents join workspace:<wid>, user:<uid> and the private-team topics they
 * may see; widget visitors join only contact:<wid>:<cid> and get only public events. Committed
 * events fan out once per socket: Bun's pub/sub for the main topic, our own index for extra topics
 * and for the `event.hidden` stand-ins of private-team events. The upgrade (gateway.upgrade.ts),
 * admission and replay (gateway.admit.ts), client frames (gateway.frames.ts), fan-out
 * (gateway.publish.ts) and grant changes (gateway.grants.ts) share one `Gateway` state.
 */
export async function createRealtimeGateway(deps: GatewayDeps) {
  // PostgreSQL: other nodes' commits reach this node's listeners (src/events/feed.ts), started
  // before the seqs are read so that nothing committed between the two is missed.
  const feed =
    FEED_ON && deps.config.databaseUrl
      ? await startEventFeed(deps.db, deps.config.databaseUrl, deps.logger.child({ subsystem: "events" }))
      : null;
  const gateway = openGateway(deps, await deps.lookups.storedSeqs(false));
  const unsubscribe = [
    onEventsCommitted(deps.db, (events) => publishCommitted(gateway, events)),
    onAccessEnded(deps.db, (signal) => onAccessSignal(gateway, signal)),
  ];
  return {
    websocket: socketHandler(gateway),
    attach(target: Server<unknown>) {
      gateway.server = target;
    },
    upgrade: (request: Request, target: Server<unknown>) => upgradeSocket(gateway, request, target),
    connected: () => gateway.sockets.size,
    metrics: (): MetricSource => gatewayMetrics(gateway),
    stop() {
      for (const off of unsubscribe) off();
      void feed?.stop().catch((error: unknown) => gateway.log.error({ err: error }, "could not stop the event feed"));
      for (const ws of gateway.sockets) shut(ws, CLOSE.goingAway);
    },
  };
}

function openGateway(deps: GatewayDeps, seqs: ReadonlyArray<{ id: string; event_seq: number }>): Gateway {
  return {
    deps,
    log: deps.logger.child({ subsystem: "realtime" }),
    server: null,
    sockets: new Set(),
    byWorkspace: new Map(),
    keysByWorkspace: new Map(),
    byOwnTopic: new Map(),
    published: new Map<string, number>(seqs.map((r) => [r.id, r.event_seq])),
    held: new Map(),
    waiting: new Map(),
    grantChanges: new Map(),
    counter: createSocketCounter(globalSocketCap(deps.config.realtimeLimits, deps.fdLimit ?? openFileLimit())),
    // Who is on which ticket (collision detection): in memory only, ended when a socket closes.
    presence: createPresence<Socket>({ lookups: deps.lookups, send }),
    currentGrants: grantsReader(deps),
  };
}

function socketHandler(gateway: Gateway): WebSocketHandler<SocketData> {
  return {
    backpressureLimit: MAX_BUFFERED_BYTES,
    closeOnBackpressureLimit: true,
    maxPayloadLength: 64 * 1024,
    idleTimeout: 120,
    sendPings: true,
    open(ws) {
      gateway.sockets.add(ws);
      socketOpened(ws.data.kind);
      admit(gateway, ws).catch((error: unknown) => {
        gateway.log.error({ err: error }, "could not admit a socket");
        shut(ws, CLOSE.internal);
      });
    },
    message: async (ws, message) => await onFrame(gateway, ws, message),
    async close(ws) {
      ws.data.closed = true;
      releaseCaps(gateway, ws.data);
      if (!gateway.sockets.delete(ws)) return;
      socketClosed(ws.data.kind);
      removeFrom(gateway.byWorkspace, ws.data.workspaceId, ws);
      removeFrom(gateway.keysByWorkspace, ws.data.workspaceId, ws);
      for (const topic of ws.data.ownTopics) removeFrom(gateway.byOwnTopic, topic, ws);
      await gateway.presence.leave(ws);
    },
  };
}

function gatewayMetrics(gateway: Gateway): MetricSource {
  return async () => {
    let lag = 0;
    for (const row of await gateway.deps.lookups.storedSeqs(true))
      lag = Math.max(lag, row.event_seq - (gateway.published.get(row.id) ?? 0));
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
        value: gateway.presence.size(),
      },
    ];
  };
}
