/**
 * What other features may use of AI: the metered provider (chat, structured output, embeddings),
 * the meter's records, the automation hooks (sentiment and ai_decide in one call, ai_triage) and
 * the seams' types. Every provider call goes through `chat`/`chatJson`/`embed`, which meter it.
 */
import { definePort } from "../lib/ports";
import type { GroundingSources } from "./ai.context";
import type { AssignAfterTriage, TriageSettingsReader } from "./ai.triage";

export {
  chat,
  chatJson,
  embed,
  providerFailed,
  providerFor,
  type ChatCall,
  type ChatMessage,
  type ChatResult,
} from "./ai.provider";
export {
  recordUsage,
  spentSince,
  unattendedSpendSince,
  usageBetween,
  type UsageFeature,
  type UsageInput,
} from "./ai.metering";
export { costMicros, microsToUsd, modelInfo, COST_KEYS, type CostKey } from "./ai.prices";
export { aiWorkspaceOf, requireAi, type AiFeatures, type AiWorkspace } from "./ai.settings";
export {
  AI_REQUESTS_PER_MINUTE,
  aiQuietOn,
  monthOf,
  quietTicketForAi,
  spendAiRequest,
  systemAiMayRun,
  unattendedCapReached,
} from "./ai.budget";
export { aiJudge, aiTriage, MAX_DECIDE_QUESTIONS, type AiJudge, type AiJudgement } from "./ai.judge";
export { dataBlock, system, toneLine, user, workspaceInstructions } from "./ai.prompts";
export type { GroundingSource, GroundingSources } from "./ai.context";
export type { AssignAfterTriage, DecisionEngine, TriageSettingsReader } from "./ai.triage";
export type { RawDecisions, TriageSettingsView } from "./ai.triage.types";
export type { AiUsageRow } from "./ai.table";
export { assignsAfterTriage } from "./ai.jobs";

/** Ports: what AI asks of features above it. */
export const groundingSources = definePort<GroundingSources>("ai.groundingSources");
/** The workspace's TriageSettings (the triage settings feature; null: SPEC.md's defaults). */
export const triageSettings = definePort<TriageSettingsReader>("ai.triageSettings");
/** Assignment after an automatic triage when `assign_after_triage` is on. */
export const assignAfterTriage = definePort<AssignAfterTriage>("ai.assignAfterTriage");
