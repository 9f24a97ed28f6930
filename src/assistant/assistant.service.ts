import { first } from "../db/store";
import { and, desc, eq } from "drizzle-orm";
import type { RequestContext } from "../auth/context";
import { recordAudit } from "../audit/audit.public";
import { aiWorkspaceOf } from "../ai/ai.public";
import type { Queryable } from "../db/database";
import { deskState } from "../db/desk-state";
import { transact } from "../db/tx";
import type { Deps } from "../deps";
import { minuteBudget } from "../http/rate-limit";
import { sha256Hex, safeEqual } from "../lib/crypto";
import { conflict, DeskError, forbidden, notFound } from "../lib/errors";
import { newId, randomToken } from "../lib/ids";
import {
  type AssistantActionRow,
  type AssistantSessionRow,
  assistantActions,
  assistantSessions,
  type ModelMessage,
  type StepJson,
  type TurnJson,
} from "./assistant.table";
import type { Preview } from "./assistant.tools";
import { assistantStatements } from "./assistant.statements";

export const APPROVAL_TTL_MS = 15 * 60_000;
export const MESSAGES_PER_MINUTE = 30;

/** 403 assistant_off unless AI is on for the instance and workspace and `settings.ai.assistant` is on; people only. */
export async function requireAssistant(deps: Deps, ctx: RequestContext): Promise<string> {
  if (ctx.actor.type !== "user") throw forbidden("The assistant is for signed-in people; API keys cannot use it.");
  const off = (detail: string) => new DeskError(403, "assistant_off", detail);
  if (!deps.config.ai) throw off("No AI provider is configured on this instance.");
  const features = (await aiWorkspaceOf(deps, ctx.workspaceId)).features;
  if (!features.enabled) throw off("AI is turned off in this workspace's settings.");
  if (!features.assistant) throw off("The assistant is turned off in this workspace's settings (ai.assistant).");
  return ctx.actor.userId;
}

export const presentSession = (row: AssistantSessionRow) => ({
  id: row.id,
  title: row.title,
  created_at: row.createdAt,
  updated_at: row.updatedAt,
});
export type SessionJson = ReturnType<typeof presentSession>;

export async function listSessions(deps: Deps, ctx: RequestContext, userId: string) {
  return (
    await deps.db
      .select()
      .from(assistantSessions)
      .where(and(eq(assistantSessions.workspaceId, ctx.workspaceId), eq(assistantSessions.userId, userId)))
      .orderBy(desc(assistantSessions.updatedAt), desc(assistantSessions.id))
      .limit(100)
  ).map(presentSession);
}

export async function createSession(
  deps: Deps,
  ctx: RequestContext,
  userId: string,
  title?: string,
): Promise<AssistantSessionRow> {
  const now = deps.clock.now().toISOString();
  const row: AssistantSessionRow = {
    id: newId(),
    workspaceId: ctx.workspaceId,
    userId,
    title: title?.trim() || "New conversation",
    transcript: [],
    messages: [],
    createdAt: now,
    updatedAt: now,
  };
  await transact(deps.db, async (tx) => await tx.insert(assistantSessions).values(row));
  return row;
}

/** A conversation of this user in this workspace; another user's (or workspace's) answers 404 like a missing one. */
export async function sessionOf(
  deps: Deps,
  ctx: RequestContext,
  userId: string,
  id: string,
): Promise<AssistantSessionRow> {
  const row = first(
    await deps.db
      .select()
      .from(assistantSessions)
      .where(
        and(
          eq(assistantSessions.id, id),
          eq(assistantSessions.workspaceId, ctx.workspaceId),
          eq(assistantSessions.userId, userId),
        ),
      )
      .limit(1),
  );
  if (!row) throw notFound("Assistant conversation");
  return row;
}

export const presentAction = (row: AssistantActionRow, token?: string) => ({
  action_id: row.id,
  call_id: row.callId,
  tool: row.tool,
  status: row.status,
  preview: row.preview as Preview,
  expires_at: row.expiresAt,
  ...(token ? { token } : {}),
});

export async function pendingActionOf(deps: Deps, sessionId: string): Promise<AssistantActionRow | undefined> {
  return first(
    await deps.db
      .select()
      .from(assistantActions)
      .where(and(eq(assistantActions.sessionId, sessionId), eq(assistantActions.status, "pending")))
      .limit(1),
  );
}

/** The transcript and any pending approval (its token is shown only once, in the run that proposed it). */
export async function sessionDetail(deps: Deps, row: AssistantSessionRow) {
  const pending = await pendingActionOf(deps, row.id);
  const live = pending && pending.expiresAt > deps.clock.now().toISOString() ? pending : undefined;
  return { ...presentSession(row), turns: row.transcript, approval: live ? presentAction(live) : null };
}

export async function renameSession(deps: Deps, ctx: RequestContext, userId: string, id: string, title: string) {
  const row = await sessionOf(deps, ctx, userId, id);
  const now = deps.clock.now().toISOString();
  await transact(
    deps.db,
    async (tx) =>
      await tx.update(assistantSessions).set({ title, updatedAt: now }).where(eq(assistantSessions.id, row.id)),
  );
  return { ...row, title, updatedAt: now };
}

export async function deleteSession(deps: Deps, ctx: RequestContext, userId: string, id: string): Promise<void> {
  const row = await sessionOf(deps, ctx, userId, id);
  if (runningOf(deps.db).has(row.id)) throw conflict("The conversation is running.", "assistant_busy");
  await transact(deps.db, async (tx) => {
    await tx.delete(assistantActions).where(eq(assistantActions.sessionId, row.id));
    await tx.delete(assistantSessions).where(eq(assistantSessions.id, row.id));
  });
}

/** Conversations running now (one run at a time each): a single process owns them. */
export const runningOf = deskState("assistant.running", () => new Set<string>());
const takeMessage = minuteBudget("assistant.messages", MESSAGES_PER_MINUTE);

/** 30 messages and decisions a minute per user, then 429 with Retry-After; counted by the desk's limiter store. */
export async function takeMessageBudget(deps: Deps, ctx: RequestContext, userId: string): Promise<void> {
  await takeMessage(deps, `${ctx.workspaceId}:${userId}`);
}

/** Takes the conversation for a run; 409 assistant_busy when one is already running. */
export function lockSession(deps: Deps, sessionId: string): () => void {
  const running = runningOf(deps.db);
  if (running.has(sessionId))
    throw conflict("The assistant is already working in this conversation; wait for it to finish.", "assistant_busy");
  running.add(sessionId);
  return () => running.delete(sessionId);
}

/** Marks the step of an action in the transcript (approved, denied, expired, error). */
export function setStep(transcript: TurnJson[], stepId: string, patch: Partial<StepJson>): StepJson | null {
  for (const turn of transcript)
    for (const step of turn.steps)
      if (step.id === stepId) {
        Object.assign(step, patch);
        return step;
      }
  return null;
}

/**
 * A new message expires the pending approval: its step becomes `expired` and the model is told
 * the change was not made.
 */
export async function expirePending(deps: Deps, session: AssistantSessionRow): Promise<void> {
  const pending = await pendingActionOf(deps, session.id);
  if (!pending) return;
  const now = deps.clock.now().toISOString();
  setStep(session.transcript, pending.stepId, { status: "expired" });
  session.messages.push({
    role: "tool",
    tool_call_id: pending.callId,
    content: JSON.stringify({ status: "expired", note: "The user moved on; the change was not made." }),
  });
  await transact(
    deps.db,
    async (tx) =>
      await tx
        .update(assistantActions)
        .set({ status: "expired", decidedAt: now })
        .where(eq(assistantActions.id, pending.id)),
  );
}

export async function newAction(
  deps: Deps,
  input: {
    ctx: RequestContext;
    userId: string;
    sessionId: string;
    callId: string;
    stepId: string;
    tool: string;
    args: Record<string, unknown>;
    preview: Record<string, unknown>;
  },
): Promise<{ row: AssistantActionRow; token: string }> {
  const now = deps.clock.now();
  const token = randomToken();
  const row: AssistantActionRow = {
    id: newId(),
    workspaceId: input.ctx.workspaceId,
    userId: input.userId,
    sessionId: input.sessionId,
    authSessionId: input.ctx.actor.type === "user" ? input.ctx.actor.sessionId : null,
    callId: input.callId,
    stepId: input.stepId,
    tool: input.tool,
    args: input.args,
    preview: input.preview,
    tokenHash: sha256Hex(token),
    status: "pending",
    expiresAt: new Date(now.getTime() + APPROVAL_TTL_MS).toISOString(),
    decidedAt: null,
    attempts: 0,
    createdAt: now.toISOString(),
  };
  await transact(deps.db, async (tx) => await tx.insert(assistantActions).values(row));
  return { row, token };
}

/**
 * Checks a decision: the action must be this user's in this workspace (else 404), pending (else
 * 409 approval_not_pending), its token right and from the same sign-in session (else 403
 * approval_invalid), and not expired (then it becomes `expired` and answers 403 approval_invalid).
 */
export async function actionForDecision(
  deps: Deps,
  ctx: RequestContext,
  userId: string,
  actionId: string,
  token: string,
): Promise<AssistantActionRow> {
  const row = first(
    await deps.db
      .select()
      .from(assistantActions)
      .where(
        and(
          eq(assistantActions.id, actionId),
          eq(assistantActions.workspaceId, ctx.workspaceId),
          eq(assistantActions.userId, userId),
        ),
      )
      .limit(1),
  );
  if (!row) throw notFound("Assistant action");
  if (row.status !== "pending")
    throw conflict(`This approval is no longer pending (${row.status}).`, "approval_not_pending");
  const sessionId = ctx.actor.type === "user" ? ctx.actor.sessionId : null;
  if (!safeEqual(sha256Hex(token), row.tokenHash) || row.authSessionId !== sessionId)
    throw new DeskError(403, "approval_invalid", "The approval token is not valid for this action.");
  if (row.expiresAt <= deps.clock.now().toISOString()) {
    const session = first(
      await deps.db.select().from(assistantSessions).where(eq(assistantSessions.id, row.sessionId)).limit(1),
    );
    await transact(deps.db, async (tx) => {
      await tx
        .update(assistantActions)
        .set({ status: "expired", decidedAt: deps.clock.now().toISOString() })
        .where(eq(assistantActions.id, row.id));
      if (session) {
        setStep(session.transcript, row.stepId, { status: "expired" });
        const messages: ModelMessage[] = [
          ...session.messages,
          { role: "tool", tool_call_id: row.callId, content: JSON.stringify({ status: "expired" }) },
        ];
        await tx
          .update(assistantSessions)
          .set({ transcript: session.transcript, messages })
          .where(eq(assistantSessions.id, session.id));
      }
    });
    throw new DeskError(403, "approval_invalid", "The approval expired (approvals last 15 minutes); ask again.");
  }
  return row;
}

export async function auditAction(deps: Deps, ctx: RequestContext, row: AssistantActionRow, outcome: string) {
  await transact(
    deps.db,
    async (tx) =>
      await recordAudit(tx, ctx, {
        action: "assistant.action",
        entityType: "assistant_action",
        entityId: row.id,
        data: { tool: row.tool, args: row.args, outcome, session_id: row.sessionId },
      }),
  );
}

/** Onboarding's `try_assistant`: someone in the workspace has sent the assistant a message. */
export async function assistantTried(db: Queryable, workspaceId: string): Promise<boolean> {
  return await assistantStatements(db).tried(workspaceId);
}
