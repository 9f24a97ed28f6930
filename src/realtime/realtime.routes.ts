import { Elysia } from "elysia";
import { z } from "zod";
import type { GuardPlugin } from "../auth/guard";
import type { TokenService } from "../auth/tokens";
import type { Config } from "../config/config";
import type { Db } from "../db/database";
import { errorResponses } from "../http/schemas";
import { AGENT_PATH } from "./gateway.state";
import { PROTOCOL_TEXT } from "./realtime.protocol";
import { issueRealtimeToken } from "./realtime.service";

const TokenAnswer = z.object({
  token: z.string().describe("JWT, purpose ws, valid 5 minutes"),
  url: z.string().describe("the WebSocket address, token included"),
  expires_in: z.number(),
});

/** What the token route needs of the desk's dependencies. */
type RealtimeRouteDeps = { db: Db; guard: GuardPlugin; tokens: TokenService; config: Pick<Config, "baseUrl"> };

export function realtimeRoutes(deps: RealtimeRouteDeps) {
  return new Elysia({ prefix: "/realtime", tags: ["realtime"] }).use(deps.guard).post(
    "/token",
    async ({ ctx }) => {
      const { token, expiresIn } = await issueRealtimeToken(ctx, deps);
      // Read per request: without DESK_BASE_URL the base URL is completed once the listener is bound.
      const base = deps.config.baseUrl.replace(/^http/, "ws");
      return { token, url: `${base}${AGENT_PATH}?token=${encodeURIComponent(token)}`, expires_in: expiresIn };
    },
    {
      access: { role: "viewer", scopes: ["realtime"] },
      response: { 200: TokenAnswer, ...errorResponses },
      detail: { summary: "A short-lived token for the realtime gateway", description: PROTOCOL_TEXT },
    },
  );
}
