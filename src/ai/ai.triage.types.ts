import type { Sentiment } from "./ai.agent";

/** TriageSettings as triage reads them (owned by the triage settings feature; see `TriageSettingsReader`). */
export type TriageFieldName = "priority" | "severity" | "labels" | "team";
export type TriageSettingsView = {
  auto_triage: boolean;
  fields: TriageFieldName[];
  threshold: number;
  assign_after_triage: boolean;
};

export type Decision = {
  value: string | boolean | number | null;
  probability: number | null;
  confidence: number | null;
  applied: boolean;
};
export const DECISION_KEYS = [
  "priority",
  "severity",
  "category",
  "type_label",
  "label",
  "sentiment",
  "language",
  "spam",
  "needs_human",
  "team",
  "sla_risk",
] as const;
export type DecisionKey = (typeof DECISION_KEYS)[number];
export type AiDecisions = {
  engine: "engine_vendor" | "llm";
  model: string;
  threshold: number;
  decided_at: string;
  fields: Record<DecisionKey, Decision>;
};
export type Suggestion = {
  value: string | string[] | boolean;
  confidence: number | null;
  probability: number | null;
  model: string;
  decided_at: string;
};
export const SUGGESTION_FIELDS = ["priority", "severity", "labels", "team", "spam"] as const;
export type SuggestionField = (typeof SUGGESTION_FIELDS)[number];
export type AiSuggestions = Partial<Record<SuggestionField, Suggestion>>;

export type TriageJson = {
  tags: string[];
  suggested_tags: string[];
  priority: string | null;
  severity: string | null;
  team_id: string | null;
  sentiment: Sentiment | null;
  language: string | null;
  category: (typeof CATEGORIES)[number] | null;
  summary: string;
  applied: DecisionKey[];
  decisions: AiDecisions;
  suggestions: AiSuggestions;
};

export const CATEGORIES = [
  "question",
  "problem",
  "bug",
  "feature_request",
  "billing",
  "account",
  "shipping",
  "feedback",
  "other",
] as const;

export type RawTriage = Partial<Record<string, unknown>>;

export type TriageInput = { apply?: boolean; via: "triage" | "auto_triage" | "automation" };

/** One decision as its engine gives it, before the values are checked against the choices. */
export type RawDecision = { value: unknown; probability?: number | null; confidence?: number | null };
export type RawDecisions = Partial<Record<DecisionKey, RawDecision>>;
