import type { Tx } from "../db/database";
import type { Deps } from "../deps";
import { definePort } from "../lib/ports";

/**
 * What an automation asks the AI of one ticket, all at once (SPEC.md: every ai_decide question of
 * an automation in one call, charged once): the sentiment when a condition reads it, and the
 * probability that each question's answer is yes.
 */
export type AiJudgeRequest = {
  workspaceId: string;
  ticketId: string;
  automationId: string;
  /** The text the trigger is about: the reply for the replied triggers, else the first message. */
  text: string;
  sentiment: boolean;
  questions: string[];
};
/** The engine's answer: null members (or a null answer) mean it did not decide, and the condition does not hold. */
export type AiJudgement = { sentiment: string | null; probabilities: Array<number | null> };
/** Supplied by the AI feature through the `automations.ai` port; absent, AI conditions never hold. */
export type AiJudge = (
  request: AiJudgeRequest,
  context: { deps: Deps; signal: AbortSignal },
) => Promise<AiJudgement | null>;

/**
 * Starts an AI triage of a ticket (the ai_triage action) inside the automation's transaction,
 * typically by enqueueing the AI feature's job; answers a reason when it cannot run (recorded on
 * the run), or null when it was started.
 */
export type AiTriage = (
  tx: Tx,
  request: { workspaceId: string; ticketId: string; automationId: string },
  deps: Deps,
) => (string | null) | Promise<string | null>;

export type AutomationsOptions = { aiJudge?: AiJudge; aiTriage?: AiTriage };

/** The AI feature, above automations, answers AI conditions and runs the ai_triage action. */
export const automationAi = definePort<AutomationsOptions>("automations.ai");
