import type { RequestContext } from "../auth/context";
import type { Deps } from "../deps";
import { minuteBudget } from "../http/rate-limit";

/**
 * Each person or API key may ask for this many AI answers a minute in a workspace (drafts,
 * summaries, questions, triage, rewrites, translations, article drafts, semantic search); the next
 * answers 429 `rate_limited` with Retry-After. A runaway script or a stuck client then costs a
 * minute's worth of calls, not a month's allowance. Jobs (auto-triage, auto-summarize) are not
 * people and are not counted.
 */
export const AI_REQUESTS_PER_MINUTE = 60;

const takeAiRequest = minuteBudget("ai.requests", AI_REQUESTS_PER_MINUTE);

/** Spends one of the caller's AI requests this minute, or throws 429 `rate_limited`. */
export function spendAiRequest(deps: Deps, ctx: RequestContext): void {
  const caller = ctx.actor.type === "user" ? `user:${ctx.actor.userId}` : `key:${ctx.actor.apiKeyId}`;
  takeAiRequest(deps, `${ctx.workspaceId}:${caller}`);
}
