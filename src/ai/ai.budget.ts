import { first } from "../db/store";
import { and, eq } from "drizzle-orm";
import type { RequestContext } from "../auth/context";
import type { Queryable, Tx } from "../db/database";
import type { Deps } from "../deps";
import { minuteBudget } from "../http/rate-limit";
import { ticketOfWorkspace } from "../tickets/tickets.public";
import { unattendedSpendSince } from "./ai.metering";
import { aiWorkspaceOf } from "./ai.settings";
import { aiQuietTickets } from "./ai.table";

/**
 * Each person or API key may ask for this many AI answers a minute in a workspace (drafts,
 * summaries, questions, triage, rewrites, translations, article drafts, semantic search); the next
 * answers 429 `rate_limited` with Retry-After. A runaway script or a stuck client then costs a
 * minute's worth of calls, not a month's allowance. Jobs (auto-triage, auto-summarize) are not
 * people and are not counted.
 */
export const AI_REQUESTS_PER_MINUTE = 60;

const takeAiRequest = minuteBudget("ai.requests", AI_REQUESTS_PER_MINUTE);

/**
 * Spends one of the caller's AI requests this minute, or throws 429 `rate_limited`: one `take` of the
 * desk's limiter store (`ai.requests`), so nodes sharing a store share the count.
 */
export async function spendAiRequest(deps: Deps, ctx: RequestContext): Promise<void> {
  const caller = ctx.actor.type === "user" ? `user:${ctx.actor.userId}` : `key:${ctx.actor.apiKeyId}`;
  await takeAiRequest(deps, `${ctx.workspaceId}:${caller}`);
}

/** `YYYY-MM` and the first instant of the clock's UTC month. */
export function monthOf(now: Date): { month: string; start: string } {
  const start = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
  return { month: start.toISOString().slice(0, 7), start: start.toISOString() };
}

/** True when this month's unattended spend reached the workspace's cap (`widget_monthly_cap_usd`; 0 = none). */
export async function unattendedCapReached(
  deps: Pick<Deps, "db" | "config" | "clock">,
  workspaceId: string,
): Promise<boolean> {
  const cap = (await aiWorkspaceOf(deps, workspaceId)).capMicros;
  return cap > 0 && (await unattendedSpendSince(deps.db, workspaceId, monthOf(deps.clock.now()).start)) >= cap;
}

/** Marks a ticket the system's AI leaves alone from now on (see `aiQuietTickets`). */
export async function quietTicketForAi(
  tx: Tx,
  workspaceId: string,
  ticketId: string,
  reason: string,
  now: Date,
): Promise<void> {
  await tx
    .insert(aiQuietTickets)
    .values({ ticketId, workspaceId, reason, createdAt: now.toISOString() })
    .onConflictDoNothing();
}

export const aiQuietOn = async (db: Queryable, workspaceId: string, ticketId: string): Promise<boolean> =>
  first(
    await db
      .select({ id: aiQuietTickets.ticketId })
      .from(aiQuietTickets)
      .where(and(eq(aiQuietTickets.workspaceId, workspaceId), eq(aiQuietTickets.ticketId, ticketId)))
      .limit(1),
  ) !== undefined;

/**
 * Whether the system may spend AI on a ticket on its own (auto-triage, summaries, AI conditions):
 * not on a ticket marked quiet, nor on a chat ticket once the month's unattended cap is reached.
 * What a person asks for is theirs to spend and is not judged here.
 */
export async function systemAiMayRun(
  deps: Pick<Deps, "db" | "config" | "clock">,
  workspaceId: string,
  ticketId: string,
) {
  if (await aiQuietOn(deps.db, workspaceId, ticketId)) return false;
  const channel = (await ticketOfWorkspace(deps.db, workspaceId, ticketId))?.channel;
  return channel !== "chat" || !(await unattendedCapReached(deps, workspaceId));
}
