import type { RequestContext } from "../auth/context";
import type { Deps } from "../deps";
import { presentTickets, type TicketPatch, type TicketRow, updateTicket } from "../tickets/tickets.public";
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
} from "./ai.triage.types";

/** Triage's application rules (SPEC.md "Triage decision application", "Suggestions on a ticket"). */

const PRIORITY_RANK: Record<string, number> = { low: 1, normal: 2, high: 3, urgent: 4 };
const SEVERITY_RANK: Record<string, number> = { sev4: 1, sev3: 2, sev2: 3, sev1: 4 };
const SPAM_SUGGESTION = 0.8;

const pick = <T extends string>(value: unknown, allowed: readonly T[]): T | null =>
  typeof value === "string" && (allowed as readonly string[]).includes(value) ? (value as T) : null;
export const unit = (value: unknown): number | null =>
  typeof value === "number" && Number.isFinite(value) ? Math.min(1, Math.max(0, value)) : null;

/**
 * A change decided by AI (triage, an automation's ai_triage): applied like a PATCH, its activities
 * attributed to actor `ai` with `{ via, model, confidence }` in their data, and `ticket.updated`
 * with the changes. Pending suggestions are left as the patch's `custom` sets them.
 */
async function updateTicketByAi(
  ctx: RequestContext,
  ref: string,
  patch: TicketPatch,
  decision: { via: string; model: string; confidence: number | null },
  deps: Deps,
): Promise<TicketRow> {
  return await updateTicket(ctx, ref, patch, deps, {
    enforceRequired: false,
    actor: { type: "ai", userId: null },
    activityData: decision,
    keepSuggestions: true,
  });
}

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

type TriageOptions = {
  engine: AiDecisions["engine"];
  model: string;
  summary: string;
  apply: boolean;
  via: TriageInput["via"];
  settings: Omit<TriageSettingsView, "auto_triage">;
  typeLabels: string[];
  labels: string[];
  teams: Array<{ id: string; name: string }>;
};

/** How one run weighs its raw decisions: confidence, the threshold and the allowed fields. */
function judgeOf(raw: RawDecisions, options: TriageOptions, now: string) {
  const { threshold } = options.settings;
  const confidenceOf = (key: DecisionKey) => unit(raw[key]?.confidence);
  // The configured model gives no confidence (SPEC.md: no gate; the allowed fields bound it); an
  // engine decision that lacks one is unsure, never above the threshold.
  const confident = (key: DecisionKey) => {
    const confidence = confidenceOf(key);
    return confidence === null ? options.engine === "llm" : confidence >= threshold;
  };
  return {
    /** Applies when `apply: true`, or when the field is allowed and the decision confident enough. */
    applies: (key: DecisionKey, field: TriageFieldName | null) =>
      options.apply || ((field === null || options.settings.fields.includes(field)) && confident(key)),
    decision: (key: DecisionKey, value: Decision["value"]): Decision => ({
      value,
      probability: unit(raw[key]?.probability),
      confidence: confidenceOf(key),
      applied: false,
    }),
    suggestion: (key: DecisionKey, value: Suggestion["value"]): Suggestion => ({
      value,
      confidence: confidenceOf(key),
      probability: unit(raw[key]?.probability),
      model: options.model,
      decided_at: now,
    }),
  };
}
type Judge = ReturnType<typeof judgeOf>;

/** The raw values checked against the choices offered: anything else is dropped. */
function offeredValues(raw: RawDecisions, options: TriageOptions) {
  const value = (key: DecisionKey) => raw[key]?.value;
  const severityRaw = pick(value("severity"), ["none", "sev4", "sev3", "sev2", "sev1"] as const);
  const languageRaw = value("language");
  const needsHuman = value("needs_human");
  const spamValue = value("spam");
  return {
    priority: pick(value("priority"), ["low", "normal", "high", "urgent"] as const),
    severity: severityRaw === "none" ? null : severityRaw,
    category: pick(value("category"), CATEGORIES),
    sentiment: pick<Sentiment>(value("sentiment"), SENTIMENTS),
    language:
      typeof languageRaw === "string" && /^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$/.test(languageRaw) ? languageRaw : null,
    typeLabel: pick(value("type_label"), options.typeLabels),
    label: pick(value("label"), options.labels),
    team: options.teams.find((t) => t.name === value("team") || t.id === value("team")) ?? null,
    spamProbability: unit(raw.spam?.probability),
    spam: typeof spamValue === "boolean" ? spamValue : null,
    slaRisk: unit(value("sla_risk")),
    needsHuman: typeof needsHuman === "boolean" ? needsHuman : null,
  };
}
type Offered = ReturnType<typeof offeredValues>;

/** What the run changes on the ticket and what it leaves as suggestions (priority and severity only rise, the team only fills a gap). */
function decideChanges(
  ticket: TicketRow,
  currentTags: Set<string>,
  offered: Offered,
  fields: Record<DecisionKey, Decision>,
  judge: Judge,
) {
  const { priority, severity, typeLabel, label, team, spamProbability } = offered;
  const patch: TicketPatch = {};
  const suggestions: AiSuggestions = {};
  if (priority && PRIORITY_RANK[priority]! > PRIORITY_RANK[ticket.priority]!) {
    if (judge.applies("priority", "priority")) {
      patch.priority = priority;
      fields.priority.applied = true;
    } else suggestions.priority = judge.suggestion("priority", priority);
  }
  if (severity && (ticket.severity === null || SEVERITY_RANK[severity]! > SEVERITY_RANK[ticket.severity]!)) {
    if (judge.applies("severity", "severity")) {
      patch.severity = severity;
      fields.severity.applied = true;
    } else suggestions.severity = judge.suggestion("severity", severity);
  }
  const applied: string[] = [];
  const suggested: string[] = [];
  for (const [key, name] of [
    ["type_label", typeLabel],
    ["label", label],
  ] as const) {
    if (!name || currentTags.has(name.toLowerCase())) continue;
    if (judge.applies(key, "labels")) {
      applied.push(name);
      fields[key].applied = true;
    } else suggested.push(name);
  }
  if (applied.length) patch.add_tags = applied;
  if (suggested.length)
    suggestions.labels = judge.suggestion(fields.type_label.applied ? "label" : "type_label", suggested);
  if (team && ticket.teamId === null) {
    if (judge.applies("team", "team")) {
      patch.team_id = team.id;
      fields.team.applied = true;
    } else suggestions.team = judge.suggestion("team", team.id);
  }
  if (spamProbability !== null && spamProbability >= SPAM_SUGGESTION && !ticket.spam)
    suggestions.spam = judge.suggestion("spam", true);
  return { patch, suggestions, applied, suggested };
}

export async function applyTriage(
  deps: Deps,
  ctx: RequestContext,
  ticket: TicketRow,
  raw: RawDecisions,
  options: TriageOptions,
): Promise<TriageJson> {
  const now = deps.clock.now().toISOString();
  const { threshold } = options.settings;
  const judge = judgeOf(raw, options, now);
  const current = (await presentTickets(deps.db, [ticket]))[0]!;
  const currentTags = new Set(current.tags.map((t) => t.name.toLowerCase()));
  const offered = offeredValues(raw, options);
  const { priority, severity, category, sentiment, language, typeLabel, label, team } = offered;

  const fields: Record<DecisionKey, Decision> = {
    priority: judge.decision("priority", priority),
    severity: judge.decision("severity", severity),
    category: judge.decision("category", category),
    type_label: judge.decision("type_label", typeLabel),
    label: judge.decision("label", label),
    sentiment: judge.decision("sentiment", sentiment),
    language: judge.decision("language", language),
    spam: judge.decision("spam", offered.spam),
    needs_human: judge.decision("needs_human", offered.needsHuman),
    team: judge.decision("team", team?.id ?? null),
    sla_risk: judge.decision("sla_risk", offered.slaRisk),
  };
  const { patch, suggestions, applied, suggested } = decideChanges(ticket, currentTags, offered, fields, judge);

  const custom: Record<string, unknown> = {};
  for (const [key, member, decided] of [
    ["category", "ai_category", category],
    ["sentiment", "ai_sentiment", sentiment],
    ["language", "language", language],
  ] as const) {
    if (decided && judge.applies(key, null)) {
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
  await updateTicketByAi(
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
