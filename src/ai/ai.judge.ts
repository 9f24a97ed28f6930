import { systemContext } from "../auth/context";
import type { Deps } from "../deps";
import { DeskError } from "../lib/errors";
import { getTicket, listMessages, updateTicket, type TicketRow } from "../tickets/tickets.public";
import { SENTIMENTS, type Sentiment } from "./ai.agent";
import { threadText } from "./ai.context";
import { dataBlock, system, user } from "./ai.prompts";
import { chatJson } from "./ai.provider";
import { aiWorkspaceOf } from "./ai.settings";
import { systemAiMayRun } from "./ai.budget";
import { type TriageSeams, triageTicket } from "./ai.triage";
import type { SuggestionField, TriageJson } from "./ai.triage.types";

/**
 * What automations ask the model, answered in one call charged once: the customer's sentiment
 * (the `sentiment` condition) and up to three yes/no questions (`ai_decide`), each as the
 * probability that the answer is yes. Null when AI is off for the workspace or the call fails:
 * the conditions then do not hold.
 */
export type AiJudgement = { sentiment: Sentiment | null; probabilities: number[] };
export type AiJudge = (
  deps: Deps,
  input: { workspaceId: string; ticketId: string; sentiment: boolean; questions: string[] },
) => Promise<AiJudgement | null>;

export const MAX_DECIDE_QUESTIONS = 3;

export const aiJudge: AiJudge = async (deps, input) => {
  if (!deps.config.ai || !(await aiWorkspaceOf(deps, input.workspaceId)).features.enabled) return null;
  if (!(await systemAiMayRun(deps, input.workspaceId, input.ticketId))) return null;
  const questions = input.questions.slice(0, MAX_DECIDE_QUESTIONS);
  if (!input.sentiment && questions.length === 0) return { sentiment: null, probabilities: [] };
  const ctx = systemContext(input.workspaceId);
  let ticket: TicketRow;
  try {
    ticket = await getTicket(deps.db, ctx, input.ticketId);
  } catch {
    return null;
  }
  const properties: Record<string, unknown> = {
    sentiment: { type: "string", enum: [...SENTIMENTS] },
    answers: {
      type: "array",
      items: { type: "number" },
      minItems: questions.length,
      maxItems: questions.length,
      description: "for each question in order, the probability (0 to 1) that the answer is yes",
    },
  };
  try {
    const result = await chatJson<{ sentiment?: unknown; answers?: unknown }>(deps, {
      workspaceId: input.workspaceId,
      userId: null,
      feature: "decide",
      slot: "fast",
      maxTokens: 200,
      json: {
        name: "judgement",
        schema: { type: "object", additionalProperties: false, required: ["sentiment", "answers"], properties },
      },
      messages: [
        system(
          "You judge a support ticket for an automation rule: the customer's current sentiment, and for each question",
          "the probability that its answer is yes. The questions come from the workspace's administrators. Answer with JSON only.",
        ),
        user(
          dataBlock(
            "ticket",
            `Subject: ${ticket.subject}\n\n${threadText(await listMessages(deps.db, ctx, ticket.id), { notes: false })}`,
          ),
          questions.map((q, i) => `Question ${i + 1}: ${q}`).join("\n"),
        ),
      ],
    });
    const answers = Array.isArray(result.value.answers) ? result.value.answers : [];
    return {
      sentiment: SENTIMENTS.includes(result.value.sentiment as Sentiment)
        ? (result.value.sentiment as Sentiment)
        : null,
      probabilities: questions.map((_, i) => {
        const p = answers[i];
        return typeof p === "number" && Number.isFinite(p) ? Math.min(1, Math.max(0, p)) : 0;
      }),
    };
  } catch (error) {
    if (error instanceof DeskError) return null;
    throw error;
  }
};

/**
 * Triage run by the system (auto-triage of new tickets, an automation's `ai_triage` action):
 * activities say `via` and the call is charged to no member.
 */
export function aiTriage(
  seams: TriageSeams,
): (
  deps: Deps,
  input: { workspaceId: string; ticketId: string; via: "auto_triage" | "automation" },
) => Promise<TriageJson> {
  return (deps, input) =>
    triageTicket(deps, systemContext(input.workspaceId), input.ticketId, { via: input.via }, seams);
}

/** DELETE …/ai/suggestions/{field}: the suggestion goes (`ticket.updated` with `custom` when there was one). */
export async function dismissSuggestion(
  deps: Deps,
  ctx: Parameters<typeof getTicket>[1],
  ref: string,
  field: SuggestionField,
): Promise<void> {
  const ticket = await getTicket(deps.db, ctx, ref);
  const current = ticket.custom.ai_suggestions;
  if (!current || typeof current !== "object" || !(field in current)) return;
  const { [field]: _gone, ...remaining } = current as Record<string, unknown>;
  await updateTicket(
    ctx,
    ticket.id,
    { custom: { ai_suggestions: Object.keys(remaining).length ? remaining : null } },
    deps,
  );
}
