import { actorUserId, type RequestContext } from "../auth/context";
import type { Db } from "../db/database";
import type { Deps } from "../deps";
import { DeskError } from "../lib/errors";
import { ticketLabelChoices } from "../labels/labels.public";
import { teamsOfWorkspace } from "../teams/teams.public";
import {
  getTicket,
  listMessages,
  presentTickets,
  updateTicketByAi,
  type TicketPatch,
  type TicketRow,
} from "../tickets/tickets.public";
import { SENTIMENTS, type Sentiment } from "./ai.agent";
import { threadText } from "./ai.context";
import { dataBlock, system, user } from "./ai.prompts";
import { recordUsage } from "./ai.metering";
import { chatJson } from "./ai.provider";
import { aiDisabled, aiWorkspaceOf } from "./ai.settings";

/** TriageSettings as triage reads them (owned by the triage settings feature; see `TriageSettingsReader`). */
export type TriageFieldName = "priority" | "severity" | "labels" | "team";
export type TriageSettingsView = {
  auto_triage: boolean;
  fields: TriageFieldName[];
  threshold: number;
  assign_after_triage: boolean;
};

/** Reads a workspace's triage settings; null = none stored (the defaults of SPEC.md apply). */
export type TriageSettingsReader = (db: Db, workspaceId: string) => TriageSettingsView | null;

/** Runs after an automatic triage when `assign_after_triage` is on (the assignment feature plugs in). */
export type AssignAfterTriage = (deps: Deps, workspaceId: string, ticketId: string) => void;

export const DEFAULT_TRIAGE: Omit<TriageSettingsView, "auto_triage"> = {
  fields: ["priority", "severity", "labels"],
  threshold: 0.7,
  assign_after_triage: false,
};

export function triageSettingsOf(deps: Deps, read: TriageSettingsReader | null, workspaceId: string) {
  const stored = read?.(deps.db, workspaceId);
  return stored ?? { ...DEFAULT_TRIAGE, auto_triage: aiWorkspaceOf(deps, workspaceId).features.auto_triage };
}

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

const PRIORITY_RANK: Record<string, number> = { low: 1, normal: 2, high: 3, urgent: 4 };
const SEVERITY_RANK: Record<string, number> = { sev4: 1, sev3: 2, sev2: 3, sev1: 4 };
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
const SPAM_SUGGESTION = 0.8;

/** The JSON schema of one triage answer: every choice is an enum of what the workspace has. */
function triageSchema(choices: { typeLabels: string[]; labels: string[]; teams: string[] }) {
  const properties: Record<string, unknown> = {
    priority: { type: "string", enum: ["low", "normal", "high", "urgent"] },
    severity: { type: "string", enum: ["none", "sev4", "sev3", "sev2", "sev1"], description: "sev1 is an outage" },
    category: { type: "string", enum: [...CATEGORIES] },
    sentiment: { type: "string", enum: [...SENTIMENTS] },
    language: { type: "string", description: "BCP 47 tag of the customer's language" },
    spam_probability: { type: "number", description: "0 to 1" },
    needs_human: { type: "boolean" },
    sla_risk: { type: "number", description: "0 to 1: how likely this ticket misses its deadline" },
    summary: { type: "string", description: "one sentence" },
  };
  if (choices.typeLabels.length) properties.type_label = { type: "string", enum: ["", ...choices.typeLabels] };
  if (choices.labels.length) properties.label = { type: "string", enum: ["", ...choices.labels] };
  if (choices.teams.length) properties.team = { type: "string", enum: ["", ...choices.teams] };
  return { type: "object", additionalProperties: false, required: Object.keys(properties), properties };
}

type RawTriage = Partial<Record<string, unknown>>;

const pick = <T extends string>(value: unknown, allowed: readonly T[]): T | null =>
  typeof value === "string" && (allowed as readonly string[]).includes(value) ? (value as T) : null;
const unit = (value: unknown): number | null =>
  typeof value === "number" && Number.isFinite(value) ? Math.min(1, Math.max(0, value)) : null;

export type TriageInput = { apply?: boolean; via: "triage" | "auto_triage" | "automation" };

/** One decision as its engine gives it, before the values are checked against the choices. */
export type RawDecision = { value: unknown; probability?: number | null; confidence?: number | null };
export type RawDecisions = Partial<Record<DecisionKey, RawDecision>>;

/**
 * A third-party decision engine (`engine_vendor`): decides the keys with a confidence each, which
 * the workspace's threshold gates. Plugged in with `aiModule({ decisionEngine })`; with one, triage
 * runs even when no AI model is configured. Each run is charged a fixed 0.01 USD, own key or not.
 */
export type DecisionEngine = {
  /** The engine's model as decisions and the usage report name it. */
  model: string;
  decide(
    deps: Deps,
    input: {
      workspaceId: string;
      subject: string;
      text: string;
      choices: { typeLabels: string[]; labels: string[]; teams: string[] };
      signal?: AbortSignal;
    },
  ): Promise<RawDecisions>;
};

const ENGINE_CALL_MICROS = 10_000;

export type TriageSeams = { readSettings: TriageSettingsReader | null; engine: DecisionEngine | null };

/**
 * Triage: one call deciding every key of SPEC.md's table (structured output on the configured
 * model, or the decision engine), then the application rules. A decision applies when its field is
 * allowed (triage `fields`) and its confidence is at or above the threshold; the model's decisions
 * carry `confidence: null` and apply as if above it. Otherwise it is stored as a suggestion. Spam is
 * only ever suggested (probability at least 0.8), priority and severity only rise, the team is set
 * only when empty, labels come only from the workspace's own. `apply: true` applies every decision
 * regardless of confidence and of the allowed fields (spam stays a suggestion). Values outside the
 * offered choices are dropped: an answer can never do anything else.
 */
export async function triageTicket(
  deps: Deps,
  ctx: RequestContext,
  ref: string,
  input: TriageInput,
  seams: TriageSeams,
  signal?: AbortSignal,
): Promise<TriageJson> {
  if (!deps.config.ai && !seams.engine) throw aiDisabled();
  const ws = aiWorkspaceOf(deps, ctx.workspaceId);
  if (!ws.features.enabled) throw aiDisabled("AI is turned off in this workspace's settings.");
  const ticket = getTicket(deps.db, ctx, ref);
  if (ticket.mergedIntoId) throw new DeskError(404, "not_found", "Ticket not found.");
  const settings = triageSettingsOf(deps, seams.readSettings, ctx.workspaceId);
  const labels = ticketLabelChoices(deps.db, ctx.workspaceId);
  const teams = teamsOfWorkspace(deps.db, ctx.workspaceId).filter(
    (t) => !t.private || ctx.visibleTeams === "all" || ctx.visibleTeams.includes(t.id),
  );
  const choices = { typeLabels: labels.type, labels: labels.other, teams: teams.map((t) => t.name) };
  const text = threadText(listMessages(deps.db, ctx, ticket.id), { notes: false });
  const userId = input.via === "triage" ? actorUserId(ctx) : null;
  let raw: RawDecisions;
  let summary = "";
  let engine: AiDecisions["engine"] = "llm";
  let model: string;
  if (seams.engine) {
    engine = "engine_vendor";
    model = seams.engine.model;
    raw = await decideWithEngine(deps, seams.engine, {
      workspaceId: ctx.workspaceId,
      userId,
      subject: ticket.subject,
      text,
      choices,
      signal,
    });
  } else {
    const result = await chatJson<RawTriage>(deps, {
      workspaceId: ctx.workspaceId,
      userId,
      feature: "triage",
      slot: "default",
      maxTokens: 500,
      signal,
      json: { name: "triage", schema: triageSchema(choices) },
      messages: [
        system(
          "You triage a support ticket: judge its priority, severity, category, type, label, sentiment, language,",
          "how likely it is spam, whether a person must handle it, which team should and its risk of missing its deadline.",
          "Choose only among the values the schema offers; use an empty string when no label or team fits. Answer with JSON only.",
        ),
        user(dataBlock("ticket", `Subject: ${ticket.subject}\n\n${text}`)),
      ],
    });
    model = result.model;
    raw = llmDecisions(result.value);
    summary = typeof result.value.summary === "string" ? result.value.summary.slice(0, 1000) : "";
  }
  return applyTriage(deps, ctx, ticket, raw, {
    engine,
    model,
    summary,
    apply: input.apply === true,
    via: input.via,
    settings,
    typeLabels: labels.type,
    labels: labels.other,
    teams,
  });
}

async function decideWithEngine(
  deps: Deps,
  engine: DecisionEngine,
  input: Parameters<DecisionEngine["decide"]>[1] & { userId: string | null },
): Promise<RawDecisions> {
  const usage = {
    workspaceId: input.workspaceId,
    userId: input.userId,
    feature: "triage" as const,
    model: engine.model,
  };
  const meter = { inputTokens: 0, outputTokens: 0, source: "instance" as const };
  try {
    const decided = await engine.decide(deps, input);
    recordUsage(deps, { ...usage, ...meter, ok: true, fixedMicros: ENGINE_CALL_MICROS });
    return decided;
  } catch (error) {
    recordUsage(deps, { ...usage, ...meter, ok: false });
    if (error instanceof DeskError) throw error;
    deps.logger.warn({ subsystem: "ai", err: error }, "decision engine failed");
    throw new DeskError(502, "decision_engine_failed", "The decision engine failed. Try again later.");
  }
}

/** The model's JSON as raw decisions (its decisions carry no confidence). */
function llmDecisions(raw: RawTriage): RawDecisions {
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

function applyTriage(
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
  const confident = (key: DecisionKey) => {
    const confidence = confidenceOf(key);
    return confidence === null || confidence >= threshold;
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
