import { eq } from "drizzle-orm";
import type { RequestContext } from "../auth/context";
import { transact } from "../db/tx";
import type { Deps } from "../deps";
import { DeskError } from "../lib/errors";
import { newId } from "../lib/ids";
import { type Emit, type RunResult, asksForChange, runAssistant } from "./assistant.run";
import {
  actionForDecision,
  auditAction,
  expirePending,
  lockSession,
  sessionOf,
  setStep,
  takeMessageBudget,
} from "./assistant.service";
import { assistantActions, assistantSessions as sessionsTable, type StepJson } from "./assistant.table";
import { type AssistantTool, checkRole } from "./assistant.tools";
import type { MessageBody } from "./assistant.schemas";
import type { z } from "zod";

/** A run that may stream: the route starts it with an emitter; `release` frees the conversation. */
export type StartedRun = { run: (emit: Emit, signal: AbortSignal) => Promise<RunResult>; release: () => void };

const lastUserText = (messages: Array<{ role: string; content: string | null }>) =>
  [...messages].reverse().find((m) => m.role === "user")?.content ?? "";

/** POST …/sessions/{id}/messages: checks (404, 429, 409) before anything runs, then the run. */
export async function startMessage(
  deps: Deps,
  ctx: RequestContext,
  userId: string,
  sessionId: string,
  body: z.infer<typeof MessageBody>,
  tools: AssistantTool[],
): Promise<StartedRun> {
  const session = await sessionOf(deps, ctx, userId, sessionId);
  await takeMessageBudget(deps, ctx, userId);
  const release = lockSession(deps, session.id);
  return {
    release,
    run: async (emit, signal) => {
      await expirePending(deps, session);
      if (!session.transcript.length && session.title === "New conversation")
        session.title = body.text.replace(/\s+/g, " ").trim().slice(0, 80);
      session.transcript.push({
        id: newId(),
        role: "user",
        text: body.text,
        steps: [],
        created_at: deps.clock.now().toISOString(),
      });
      session.messages.push({ role: "user", content: body.text });
      return runAssistant({
        deps,
        ctx,
        userId,
        session,
        tools,
        allowChanges: asksForChange(body.text),
        context: body.context ? JSON.stringify(body.context).slice(0, 1000) : "",
        emit,
        signal,
      });
    },
  };
}

/** A change that failed on approval: the action is spent and the model is told why. */
async function recordFailedAction(
  deps: Deps,
  session: Awaited<ReturnType<typeof sessionOf>>,
  action: Awaited<ReturnType<typeof actionForDecision>>,
  error: unknown,
  now: string,
): Promise<void> {
  await transact(deps.db, async (tx) => {
    await tx
      .update(assistantActions)
      .set({ status: "failed", decidedAt: now })
      .where(eq(assistantActions.id, action.id));
    const messages = [
      ...session.messages,
      {
        role: "tool" as const,
        tool_call_id: action.callId,
        content: JSON.stringify({ status: "failed", error: error instanceof DeskError ? error.code : "error" }),
      },
    ];
    await tx
      .update(assistantActions)
      .set({ attempts: action.attempts + 1 })
      .where(eq(assistantActions.id, action.id));
    await tx
      .update(sessionsTable)
      .set({ transcript: session.transcript, messages })
      .where(eq(sessionsTable.id, session.id));
  });
}

/**
 * POST /v1/assistant/actions/{id}/decision. Approve: the change runs through the same service
 * functions as the API with the person's RequestContext (a change they could not make fails as it
 * would for them), activities of actor `ai` with the approving user, audit `assistant.action`.
 * Deny: nothing changes. Either way the run continues with the outcome.
 */
export async function startDecision(
  deps: Deps,
  ctx: RequestContext,
  userId: string,
  actionId: string,
  body: { decision: "approve" | "deny"; token: string },
  tools: AssistantTool[],
): Promise<StartedRun> {
  const action = await actionForDecision(deps, ctx, userId, actionId, body.token);
  const session = await sessionOf(deps, ctx, userId, action.sessionId);
  const release = lockSession(deps, session.id);
  try {
    const now = deps.clock.now().toISOString();
    let decided: StepJson | null;
    let outcome: Record<string, unknown>;
    if (body.decision === "deny") {
      decided = setStep(session.transcript, action.stepId, { status: "denied" });
      outcome = { status: "denied", note: "The user denied this change; nothing was done." };
      await transact(
        deps.db,
        async (tx) =>
          await tx
            .update(assistantActions)
            .set({ status: "denied", decidedAt: now })
            .where(eq(assistantActions.id, action.id)),
      );
      await auditAction(deps, ctx, action, "denied");
    } else {
      const tool = tools.find((t) => t.name === action.tool);
      if (tool?.kind !== "change") throw new DeskError(409, "approval_not_pending", "This tool is gone.");
      try {
        const applied = await transact(deps.db, async (tx) => {
          checkRole(ctx, tool.minRole);
          const done = await tool.apply(deps, ctx, action.args as never, { userId, actionId: action.id });
          await tx
            .update(assistantActions)
            .set({ status: "approved", decidedAt: now })
            .where(eq(assistantActions.id, action.id));
          return done;
        });
        decided = setStep(session.transcript, action.stepId, {
          status: "approved",
          summary: applied.summary,
          refs: applied.refs,
        });
        outcome = { status: "approved", result: applied.summary };
        await auditAction(deps, ctx, action, "approved");
      } catch (error) {
        // The change failed as it would for the person: the action is spent, the error answered.
        setStep(session.transcript, action.stepId, {
          status: "error",
          summary: error instanceof DeskError ? error.detail : "The change failed.",
        });
        await recordFailedAction(deps, session, action, error, now);
        await auditAction(deps, ctx, action, "failed");
        throw error;
      }
    }
    session.messages.push({ role: "tool", tool_call_id: action.callId, content: JSON.stringify(outcome) });
    return {
      release,
      run: (emit, signal) =>
        runAssistant({
          deps,
          ctx,
          userId,
          session,
          tools,
          allowChanges: asksForChange(lastUserText(session.messages)),
          context: "",
          emit,
          signal,
          decided,
        }),
    };
  } catch (error) {
    release();
    throw error;
  }
}
