import type { Server, ServerWebSocket } from "bun";
import type { Role, Scope } from "../auth/context";
import type { CredentialLookups } from "../auth/credentials";
import type { TokenService } from "../auth/tokens";
import type { Config } from "../config/config";
import type { Db } from "../db/database";
import type { EventCatalogue } from "../events/catalogue";
import type { Envelope, StoredEvent } from "../events/envelope";
import type { ReadGrant } from "../events/visibility";
import type { Clock } from "../lib/clock";
import type { Logger } from "../lib/logger";
import type { createPresence, PresenceLookups } from "./presence";
import { CLOSE } from "./realtime.protocol";
import type { createSocketCounter, SocketCap } from "./socket-limits";

export const AGENT_PATH = "/v1/realtime";
export const WIDGET_PATH = "/v1/widget/realtime";
/** A socket whose unsent data passes this is a slow consumer and is dropped. */
export const MAX_BUFFERED_BYTES = 1024 * 1024;

export type SocketData = {
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
export type Socket = ServerWebSocket<SocketData>;
export type Grants = Pick<SocketData, "allTeams" | "teams" | "scopes">;

/**
 * What the gateway asks the features that own members, teams, API keys and the stored seq counters
 * (machinery reads no feature table): the composition root passes their public lookups in.
 */
export type GatewayLookups = {
  memberRole(workspaceId: string, userId: string): Role | null | Promise<Role | null>;
  privateTeams(workspaceId: string, userId: string): string[] | Promise<string[]>;
  /** The scopes (JSON text) of a key still usable at `now` in the workspace, or null. */
  liveKeyScopes(apiKeyId: string, workspaceId: string, now: string): string | null | Promise<string | null>;
  /** Each workspace's last stored event seq (`live`: deleted workspaces left out). */
  storedSeqs(live: boolean): Promise<Array<{ id: string; event_seq: number }>>;
  /** The contact of a live chat ticket of the workspace (who hears an agent typing there), or null. */
  chatContactOf(workspaceId: string, ticketId: string): (string | null) | Promise<string | null>;
  /** What a widget visitor receives of a public event (agent-only fields left out), or null for nothing. */
  visitorView(envelope: Envelope): Envelope | null;
} & PresenceLookups &
  Pick<CredentialLookups, "sessionById">;

export type GatewayDeps = {
  db: Db;
  clock: Clock;
  tokens: TokenService;
  logger: Logger;
  lookups: GatewayLookups;
  events: Pick<EventCatalogue, "readScopeOf">;
  config: Pick<Config, "realtimeLimits" | "databaseUrl">;
  /** The process's open-file limit (tests pass one; default: read from the system). */
  fdLimit?: number;
};

/** One gateway's state, shared by the functions of each concern (upgrade, admission, frames, fan-out, grants). */
export type Gateway = {
  deps: GatewayDeps;
  log: Logger;
  server: Server<unknown> | null;
  sockets: Set<Socket>;
  byWorkspace: Map<string, Set<Socket>>;
  /** API keys' sockets, which join no Bun topic: each event is checked against their scopes. */
  keysByWorkspace: Map<string, Set<Socket>>;
  byOwnTopic: Map<string, Set<Socket>>;
  /** The last seq published to sockets, per workspace (the lag metric). */
  published: Map<string, number>;
  /** Workspaces whose publication is held while sockets of theirs read grants (see holdWorkspace). */
  held: Map<string, Held>;
  /**
   * PostgreSQL: sockets whose replay went past what the feed has published yet (it publishes a
   * commit a little after it is visible), per workspace; each joins when its last replayed seq is
   * published, so none gets an event twice.
   */
  waiting: Map<string, Joining[]>;
  /** Per workspace, how many grant changes were signalled: an admission that read grants across one reads them again. */
  grantChanges: Map<string, number>;
  counter: ReturnType<typeof createSocketCounter>;
  presence: ReturnType<typeof createPresence<Socket>>;
  /** The holder's grants as they are now (null: access ended). */
  currentGrants(data: SocketData): Promise<Grants | null>;
};

/**
 * A workspace's held publication: while `holders` (admissions and grant re-reads in flight) is
 * above 0, its committed events wait in `events`, in order; sockets admitted meanwhile wait in
 * `joining` with the grants they read and the seq their replay reached (`after`).
 */
export type Held = { holders: number; events: StoredEvent[]; joining: Joining[] };
export type Joining = { ws: Socket; grants: Grants | null; after: number; joined: () => void };

export const addTo = (map: Map<string, Set<Socket>>, key: string, ws: Socket) => {
  let set = map.get(key);
  if (!set) {
    set = new Set();
    map.set(key, set);
  }
  set.add(ws);
};

export const removeFrom = (map: Map<string, Set<Socket>>, key: string, ws: Socket) => {
  const set = map.get(key);
  set?.delete(ws);
  if (set && set.size === 0) map.delete(key);
};

export function shut(ws: Socket, close: { code: number; reason: string }): void {
  if (ws.data.closed) return;
  ws.data.closed = true;
  ws.close(close.code, close.reason);
}

/** Sends one frame; a consumer that cannot keep up is dropped instead of buffering without bound. */
export function send(ws: Socket, frame: string): void {
  if (ws.data.closed) return;
  const result = ws.send(frame);
  if (result === 0 || ws.getBufferedAmount() > MAX_BUFFERED_BYTES) shut(ws, CLOSE.slowConsumer);
}

/** What a socket may read, from its grants as they stand (publish checks each event against it). */
export const grantOf = (data: SocketData): ReadGrant => ({
  scopes: data.scopes,
  visibleTeams: data.allTeams ? "all" : data.teams,
  person: data.userId,
});
