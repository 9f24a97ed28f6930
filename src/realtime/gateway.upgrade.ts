import type { Server } from "bun";
import { contactTopic, userTopic } from "../events/envelope";
import { errorResponse } from "../http/respond";
import { DeskError, unauthorized } from "../lib/errors";
import { incrementCounter } from "../metrics/metrics";
import { AGENT_PATH, WIDGET_PATH, type Gateway, type SocketData } from "./gateway.state";
import type { AgentClaims, WidgetClaims } from "./realtime.protocol";
import type { SocketCap } from "./socket-limits";

const BAD_TOKEN = "The gateway token is invalid or expired: ask for a fresh one.";

/**
 * HttpOptions.upgrade: takes the two gateway paths, leaves every other request alone. The token is
 * checked and the socket counted against its caps before upgrading: a refused caller never holds
 * a descriptor beyond its HTTP request (401 for a bad token, 429 over a cap).
 */
export async function upgradeSocket(
  gateway: Gateway,
  request: Request,
  target: Server<unknown>,
): Promise<Response | undefined | "upgraded"> {
  const url = new URL(request.url);
  const kind = url.pathname === AGENT_PATH ? "agent" : url.pathname === WIDGET_PATH ? "widget" : null;
  if (!kind) return undefined;
  const since = sinceOf(url);
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
  const data = freshSocketData(kind, since);
  const token = url.searchParams.get("token") ?? "";
  const caps =
    kind === "widget"
      ? await admitVisitor(gateway, data, token, target.requestIP(request)?.address)
      : await admitAgent(gateway, data, token);
  if (caps instanceof Response) return caps;
  try {
    gateway.counter.take(caps);
  } catch (error) {
    if (error instanceof DeskError) return refuse(error, "cap");
    throw error;
  }
  data.caps = caps;
  if (target.upgrade(request, { data })) return "upgraded";
  releaseCaps(gateway, data);
  return Response.json({ status: 400, code: "bad_request", detail: "expected a WebSocket upgrade" }, { status: 400 });
}

/** `?since=`: null when absent, NaN when not a sequence number. */
function sinceOf(url: URL): number | null {
  const sinceText = url.searchParams.get("since");
  return sinceText === null || sinceText === "" ? null : /^\d{1,15}$/.test(sinceText) ? Number(sinceText) : NaN;
}

const freshSocketData = (kind: SocketData["kind"], since: number | null): SocketData => ({
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
});

/** A widget visitor's token: its contact topic, and the caps per token, per visitor and per client address. */
async function admitVisitor(
  gateway: Gateway,
  data: SocketData,
  token: string,
  ip: string | undefined,
): Promise<SocketCap[] | Response> {
  const limits = gateway.deps.config.realtimeLimits;
  const claims = await gateway.deps.tokens.verify<WidgetClaims>(token, "widget_ws");
  if (!claims?.wid || !claims.cid) return refuse(unauthorized(BAD_TOKEN), "token");
  data.workspaceId = claims.wid;
  data.ownTopics = [contactTopic(claims.wid, claims.cid)];
  const caps: SocketCap[] = [
    { key: `t:${token}`, max: limits.widgetPerToken, what: "per gateway token" },
    { key: `v:${claims.wid}:${claims.cid}`, max: limits.widgetPerVisitor, what: "per visitor" },
  ];
  if (ip) caps.push({ key: `a:${ip}`, max: limits.widgetPerAddress, what: "per client address" });
  return caps;
}

/** An agent's or API key's token: who connects, refused when access already ended, capped per session or key. */
async function admitAgent(gateway: Gateway, data: SocketData, token: string): Promise<SocketCap[] | Response> {
  const claims = await gateway.deps.tokens.verify<AgentClaims>(token, "ws");
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
  if (!(await gateway.currentGrants(data))) return refuse(unauthorized("Access ended: sign in again."), "token");
  const holder = claims.key ? `k:${claims.key}` : claims.sid ? `s:${claims.sid}` : `u:${claims.sub}`;
  return [
    {
      key: holder,
      max: gateway.deps.config.realtimeLimits.perSession,
      what: claims.key ? "per API key" : "per sign-in session",
    },
  ];
}

function refuse(error: DeskError, why: "token" | "cap"): Response {
  incrementCounter("desk_realtime_refused_total", { reason: why });
  return errorResponse(error);
}

export function releaseCaps(gateway: Gateway, data: SocketData): void {
  if (!data.caps) return;
  gateway.counter.release(data.caps);
  data.caps = null;
}
