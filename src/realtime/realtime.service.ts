import type { RequestContext } from "../auth/context";
import { TOKEN_TTL_SECONDS, type TokenService } from "../auth/tokens";
import type { Db } from "../db/database";
import type { AgentClaims } from "./realtime.protocol";

/** Signs a `ws` token naming the holder, the workspace and the private teams whose topics it joins. */
export async function issueRealtimeToken(ctx: RequestContext, deps: { db: Db; tokens: TokenService }) {
  const visible = ctx.visibleTeams;
  const allTeams = visible === "all";
  const teams: string[] = visible === "all"
    ? deps.db.$client.query<{ id: string }, [string]>("SELECT id FROM teams WHERE workspace_id = ? AND private = 1").all(ctx.workspaceId).map((r) => r.id)
    : visible;
  const claims: AgentClaims =
    ctx.actor.type === "user"
      ? { sub: ctx.actor.userId, ...(ctx.actor.sessionId ? { sid: ctx.actor.sessionId } : {}), wid: ctx.workspaceId, teams, all_teams: allTeams }
      : { key: ctx.actor.apiKeyId, wid: ctx.workspaceId, teams, all_teams: allTeams };
  const token = await deps.tokens.sign("ws", claims);
  return { token, expiresIn: TOKEN_TTL_SECONDS.ws };
}
