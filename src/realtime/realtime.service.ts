import type { RequestContext } from "../auth/context";
import { TOKEN_TTL_SECONDS, type TokenService } from "../auth/tokens";
import type { Db } from "../db/database";
import type { AgentClaims } from "./realtime.protocol";

/**
 * Signs a `ws` token naming the holder and the workspace. It carries no grants: the gateway reads
 * the holder's current role, private teams or scopes when the socket connects and again whenever
 * they change, so a token issued before a change never opens a socket with the old view.
 */
export async function issueRealtimeToken(ctx: RequestContext, deps: { db: Db; tokens: TokenService }) {
  const claims: AgentClaims =
    ctx.actor.type === "user"
      ? { sub: ctx.actor.userId, ...(ctx.actor.sessionId ? { sid: ctx.actor.sessionId } : {}), wid: ctx.workspaceId }
      : { key: ctx.actor.apiKeyId, wid: ctx.workspaceId };
  const token = await deps.tokens.sign("ws", claims);
  return { token, expiresIn: TOKEN_TTL_SECONDS.ws };
}
