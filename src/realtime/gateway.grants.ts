import { SCOPES, type Scope } from "../auth/context";
import type { AccessEnded } from "../auth/session-signals";
import { teamTopic, workspaceTopic } from "../events/envelope";
import type { Gateway, GatewayDeps, Grants, Socket, SocketData } from "./gateway.state";
import { shut } from "./gateway.state";
import { holdWorkspace, releaseWorkspace } from "./gateway.publish";
import { CLOSE } from "./realtime.protocol";

/**
 * The holder's grants as they are now (null: access ended). People: admins and owners see every
 * private team, others their own. Keys: their current scopes; they see private teams as admins do,
 * but only events their scopes cover (src/events/visibility.ts).
 */
export function grantsReader(deps: GatewayDeps): (data: SocketData) => Promise<Grants | null> {
  const { memberRole, privateTeams, liveKeyScopes, sessionById } = deps.lookups;
  /** The socket's session, still its holder's, not revoked and not expired at `now`. */
  const sessionLive = async (sessionId: string, userId: string, now: string): Promise<boolean> => {
    const session = await sessionById(sessionId);
    return session !== null && session.user_id === userId && session.revoked_at === null && session.expires_at > now;
  };
  return async (data) => {
    const now = deps.clock.now().toISOString();
    if (data.apiKeyId) {
      const stored = await liveKeyScopes(data.apiKeyId, data.workspaceId, now);
      if (stored === null) return null;
      const scopes = (JSON.parse(stored) as string[]).filter((s): s is Scope =>
        (SCOPES as readonly string[]).includes(s),
      );
      return { allTeams: true, teams: [], scopes };
    }
    if (!data.userId || !data.sessionId || !(await sessionLive(data.sessionId, data.userId, now))) return null;
    const role = await memberRole(data.workspaceId, data.userId);
    if (!role) return null;
    if (role === "admin" || role === "owner") return { allTeams: true, teams: [], scopes: null };
    return {
      allTeams: false,
      teams: await privateTeams(data.workspaceId, data.userId),
      scopes: null,
    };
  };
}

/**
 * Joins the Bun topics matching the grants, leaving the ones no longer granted. People join the
 * workspace topic and the private teams they are in (admins get every team's events through
 * publish's own loop); keys join no topic: publish checks each event against their scopes.
 */
export function applyGrants(ws: Socket, grants: Grants): void {
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
async function rescope(gateway: Gateway, ws: Socket): Promise<void> {
  if (!ws.data.ready || ws.data.closed || ws.data.kind !== "agent") return;
  const grants = await gateway.currentGrants(ws.data);
  if (ws.data.closed) return;
  if (!grants) return shut(ws, CLOSE.accessEnded);
  applyGrants(ws, grants);
}

function closeWhere(gateway: Gateway, match: (data: SocketData) => boolean): void {
  for (const ws of gateway.sockets) if (match(ws.data)) shut(ws, CLOSE.accessEnded);
}

/** Sessions, memberships or keys ended: their sockets close; grants changed: the sockets concerned re-read theirs. */
export function onAccessSignal(gateway: Gateway, signal: AccessEnded): void {
  if (signal.kind === "grants") {
    const { workspaceId, userId } = signal;
    gateway.grantChanges.set(workspaceId, (gateway.grantChanges.get(workspaceId) ?? 0) + 1);
    const concerned = (ws: Socket) => userId === null || ws.data.userId === userId;
    // The workspace's events wait until the re-reads are done (src/realtime/gateway.publish.ts).
    const held = holdWorkspace(gateway, workspaceId);
    const rereads: Promise<void>[] = [];
    const failed = (ws: Socket) => (error: unknown) => {
      gateway.log.error({ err: error }, "could not re-read a socket's grants");
      shut(ws, CLOSE.internal);
    };
    for (const ws of gateway.byWorkspace.get(workspaceId) ?? [])
      if (concerned(ws)) rereads.push(rescope(gateway, ws).catch(failed(ws)));
    // Sockets admitted while the workspace was held, not in yet: they join with the grants read now.
    for (const joining of held.joining)
      if (joining.ws.data.kind === "agent" && concerned(joining.ws))
        rereads.push(
          gateway
            .currentGrants(joining.ws.data)
            .then((grants) => {
              joining.grants = grants;
            })
            .catch(failed(joining.ws)),
        );
    void Promise.allSettled(rereads).then(() => releaseWorkspace(gateway, workspaceId, held));
    return;
  }
  if (signal.kind === "api_key") return closeWhere(gateway, (d) => d.apiKeyId === signal.apiKeyId);
  if (signal.kind === "membership")
    return closeWhere(gateway, (d) => d.userId === signal.userId && d.workspaceId === signal.workspaceId);
  const ids = signal.sessionIds;
  closeWhere(
    gateway,
    (d) => d.userId === signal.userId && (ids === "all" || (d.sessionId !== null && ids.includes(d.sessionId))),
  );
}
