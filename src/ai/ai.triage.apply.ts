import type { RequestContext } from "../auth/context";
import type { Deps } from "../deps";
import { presentTickets, type TicketPatch, type TicketRow, updateTicketByAi } from "../tickets/tickets.public";
import { SENTIMENTS, type Sentiment } from "./ai.agent";
import {
  type AiDecisions,
  type AiSuggestions,
  CATEGORIES,
  type Decision,
  DECISION_KEYS,
  type DecisionKey,
  type RawDecision,
  type RawDecisions,
  type RawTriage,
  type Suggestion,
  type TriageFieldName,
  type TriageInput,
  type TriageJson,
  type TriageSettingsView,
} from "./ai.triage";

/** Triage's application rules (SPEC.md "Triage decision application", "Suggestions on a ticket"). */

const PRIORITY_RANK: Record<string, number> = { low: 1, normal: 2, high: 3, urgent: 4 };
const SEVERITY_RANK: Record<string, number> = { sev4: 1, sev3: 2, sev2: 3, sev1: 4 };
const SPAM_SUGGESTION = 0.8;

const pick = <T extends string>(value: unknown, allowed: readonly T[]): T | null =>
  typeof value === "string" && (allowed as readonly string[]).includes(value) ? (value as T) : null;
export const unit = (value: unknown): number | null =>
  typeof value === "number" && Number.isFinite(value) ? Math.min(1, Math.max(0, value)) : null;

/** The model's JSON as raw decisions (its decisions carry no confidence). */
export function llmDecisions(raw: RawTriage): RawDecisions {
  const spam = unit(raw.spam_probability);
  const risk = unit(raw.sla_risk);
  const plain = (key: string): RawDecision => ({ value: raw[key] });
  return {
    priority: plain("priority"),
    severity: plain("severity"),
    category: plain("category"),
    type_label: plain("type_label"),
    label: plain("label"),
    sentiment: plain("sentiment"),
    language: plain("language"),
    spam: { value: spam === null ? null : spam >= 0.5, probability: spam },
    needs_human: plain("needs_human"),
    team: plain("team"),
    sla_risk: { value: risk, probability: risk },
  };
}

export function applyTriage(
  deps: Deps,
  ctx: RequestContext,
  ticket: TicketRow,
  raw: RawDecisions,
  options: {
    engine: AiDecisions["engine"];
    model: string;
    summary: string;
    apply: boolean;
    via: TriageInput["via"];
    settings: Omit<TriageSettingsView, "auto_triage">;
    typeLabels: string[];
    labels: string[];
    teams: Array<{ id: string; name: string }>;
  },
): TriageJson {
  const now = deps.clock.now().toISOString();
  const { threshold } = options.settings;
  const confidenceOf = (key: DecisionKey) => unit(raw[key]?.confidence);
  // The configured model gives no confidence (SPEC.md: no gate; the allowed fields bound it); an
  // engine decision that lacks one is unsure, never above the threshold.
  const confident = (key: DecisionKey) => {
    const confidence = confidenceOf(key);
    return confidence === null ? options.engine === "llm" : confidence >= threshold;
  };
  /** Applies when `apply: true`, or when the field is allowed and the decision confident enough. */
  const applies = (key: DecisionKey, field: TriageFieldName | null) =>
    options.apply || ((field === null || options.settings.fields.includes(field)) && confident(key));
  const decision = (key: DecisionKey, value: Decision["value"]): Decision => ({
    value,
    probability: unit(raw[key]?.probability),
    confidence: confidenceOf(key),
    applied: false,
  });
  const suggestion = (key: DecisionKey, value: Suggestion["value"]): Suggestion => ({
    value,
    confidence: confidenceOf(key),
    probability: unit(raw[key]?.probability),
    model: options.model,
    decided_at: now,
  });
  const patch: TicketPatch = {};
  const suggestions: AiSuggestions = {};
  const current = presentTickets(deps.db, [ticket])[0]!;
  const currentTags = new Set(current.tags.map((t) => t.name.toLowerCase()));
  const value = (key: DecisionKey) => raw[key]?.value;

  const priority = pick(value("priority"), ["low", "normal", "high", "urgent"] as const);
  const severityRaw = pick(value("severity"), ["none", "sev4", "sev3", "sev2", "sev1"] as const);
  const severity = severityRaw === "none" ? null : severityRaw;
  const category = pick(value("category"), CATEGORIES);
  const sentiment = pick<Sentiment>(value("sentiment"), SENTIMENTS);
  const languageRaw = value("language");
  const language =
    typeof languageRaw === "string" && /^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$/.test(languageRaw) ? languageRaw : null;
  const typeLabel = pick(value("type_label"), options.typeLabels);
  const label = pick(value("label"), options.labels);
  const team = options.teams.find((t) => t.name === value("team") || t.id === value("team")) ?? null;
  const spamProbability = unit(raw.spam?.probability);
  const spamValue = value("spam");
  const slaRisk = unit(value("sla_risk"));
  const needsHuman = value("needs_human");

  const fields: Record<DecisionKey, Decision> = {
    priority: decision("priority", priority),
    severity: decision("severity", severity),
    category: decision("category", category),
    type_label: decision("type_label", typeLabel),
    label: decision("label", label),
    sentiment: decision("sentiment", sentiment),
    language: decision("language", language),
    spam: decision("spam", typeof spamValue === "boolean" ? spamValue : null),
    needs_human: decision("needs_human", typeof needsHuman === "boolean" ? needsHuman : null),
    team: decision("team", team?.id ?? null),
    sla_risk: decision("sla_risk", slaRisk),
  };

  if (priority && PRIORITY_RANK[priority]! > PRIORITY_RANK[ticket.priority]!) {
    if (applies("priority", "priority")) {
      patch.priority = priority;
      fields.priority.applied = true;
    } else suggestions.priority = suggestion("priority", priority);
  }
  if (severity && (ticket.severity === null || SEVERITY_RANK[severity]! > SEVERITY_RANK[ticket.severity]!)) {
    if (applies("severity", "severity")) {
      patch.severity = severity;
      fields.severity.applied = true;
    } else suggestions.severity = suggestion("severity", severity);
  }
  const applied: string[] = [];
  const suggested: string[] = [];
  for (const [key, name] of [
    ["type_label", typeLabel],
    ["label", label],
  ] as const) {
    if (!name || currentTags.has(name.toLowerCase())) continue;
    if (applies(key, "labels")) {
      applied.push(name);
      fields[key].applied = true;
    } else suggested.push(name);
  }
  if (applied.length) patch.add_tags = applied;
  if (suggested.length) suggestions.labels = suggestion(fields.type_label.applied ? "label" : "type_label", suggested);
  if (team && ticket.teamId === null) {
    if (applies("team", "team")) {
      patch.team_id = team.id;
      fields.team.applied = true;
    } else suggestions.team = suggestion("team", team.id);
  }
  if (spamProbability !== null && spamProbability >= SPAM_SUGGESTION && !ticket.spam)
    suggestions.spam = suggestion("spam", true);

  const custom: Record<string, unknown> = {};
  for (const [key, member, decided] of [
    ["category", "ai_category", category],
    ["sentiment", "ai_sentiment", sentiment],
    ["language", "language", language],
  ] as const) {
    if (decided && applies(key, null)) {
      custom[member] = decided;
      fields[key].applied = true;
    }
  }
  const decisions: AiDecisions = { engine: options.engine, model: options.model, threshold, decided_at: now, fields };
  custom.ai_decisions = decisions;
  // A new run replaces what the last one suggested (null removes the member).
  custom.ai_suggestions = Object.keys(suggestions).length ? suggestions : null;
  patch.custom = custom;

  const confidences = DECISION_KEYS.filter((k) => fields[k].applied)
    .map((k) => fields[k].confidence)
    .filter((c): c is number => c !== null);
  updateTicketByAi(
    ctx,
    ticket.id,
    patch,
    { via: options.via, model: options.model, confidence: confidences.length ? Math.min(...confidences) : null },
    deps,
  );
  return {
    tags: applied,
    suggested_tags: suggested,
    priority,
    severity,
    team_id: team?.id ?? null,
    sentiment,
    language,
    category,
    summary: options.summary,
    applied: DECISION_KEYS.filter((key) => fields[key].applied),
    decisions,
    suggestions,
  };
}
