/** Claims of a realtime token (purpose `ws`): who connects, to which workspace (grants are read at connect, not carried). */
export type AgentClaims = {
  /** The user, for people; absent for API keys. */
  sub?: string;
  /** The session, for people: logging out closes the socket. */
  sid?: string;
  /** The API key, for keys: revoking it closes the socket. */
  key?: string;
  wid: string;
};

/** Claims of a widget gateway token (purpose `widget_ws`): a visitor's contact in a workspace. */
export type WidgetClaims = { wid: string; cid: string };

/** Close codes and reasons a client sees; documented on POST /v1/realtime/token. */
export const CLOSE = {
  goingAway: { code: 1001, reason: "server shutting down" },
  internal: { code: 1011, reason: "internal error" },
  badFrame: { code: 4400, reason: "malformed frame: expected a JSON object with a known type" },
  unknownType: { code: 4400, reason: "unknown message type" },
  accessEnded: { code: 4403, reason: "access ended" },
  slowConsumer: { code: 4408, reason: "slow consumer: too much unsent data" },
  replayTooLarge: { code: 4410, reason: "too many missed events: replay through GET /v1/events, then reconnect" },
} as const;

export const PROTOCOL_TEXT =
  "Connect a WebSocket to `url` within 5 minutes (the token needs to be valid only at connect). Add `&since=<seq>` to first " +
  "receive the events missed after that seq. Events you may not read (a private team you are not in; for an API key, events " +
  "outside its scopes, as on GET /v1/events) come as `event.hidden` stand-ins, live and replayed; what you may read is checked " +
  "at connect and again whenever your role or a private team's members change. Server " +
  'frames are event envelopes as JSON text. Client frames: `{"type":"ping"}` answers `{"type":"pong"}`; ' +
  '`{"type":"chat.typing","ticket_id":"…"}` is relayed to the workspace (not stored, no seq). ' +
  '`{"type":"presence","ticket_id":"<uuid>"|null,"state":"viewing"|"typing"}` says which ticket this person has ' +
  "open (null: none); everyone else present on that ticket who may see it then receives " +
  '`{"type":"presence","ticket_id","viewers":[{"user_id","name","state"}]}` (not stored, no seq; ends when the ' +
  "socket closes; API keys' presence is ignored). An invalid or expired token, or a signed-out session, answers 401 and " +
  "the connection is not upgraded; past a connection cap it answers 429 `too_many_sockets`: by default 20 sockets per sign-in " +
  "session or API key (DESK_REALTIME_SOCKETS_PER_SESSION), and in total the open-file limit less 512 descriptors kept " +
  "for HTTP and mail (DESK_REALTIME_MAX_SOCKETS, DESK_REALTIME_FD_RESERVE). Close codes: " +
  "4400 malformed frame or unknown type, 4403 access ended (logout, member removed, key " +
  "revoked), 4408 slow consumer (over 1 MiB unsent), 4410 too many missed events for `since` (replay with GET /v1/events), " +
  "1001 server shutting down.";
