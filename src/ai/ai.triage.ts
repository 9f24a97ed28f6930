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

/**
 * Triage with the configured model: one structured-output call deciding every key of SPEC.md's
 * table, then the application rules. Decisions from the model carry `confidence: null` and apply
 * as if above threshold when their field is allowed; fields not allowed become suggestions, spam
 * is only ever suggested (probability at least 0.8), priority and severity are only raised, the
 * team is set only when empty, labels only from the workspace's own. `apply: true` applies every
 * decision regardless of confidence and of the allowed fields (spam stays a suggestion). Values the
 * model makes up outside the offered choices are dropped: its answer can never do anything else.
 */
export async function triageTicket(
  deps: Deps,
  ctx: RequestContext,
  ref: string,
  input: TriageInput,
  readSettings: TriageSettingsReader | null,
  signal?: AbortSignal,
): Promise<TriageJson> {
  // Triage also runs on a third-party decision engine alone; none is integrated yet (engine_vendor).
  if (!deps.config.ai) throw aiDisabled();
  const ws = aiWorkspaceOf(deps, ctx.workspaceId);
  if (!ws.features.enabled) throw aiDisabled("AI is turned off in this workspace's settings.");
  const ticket = getTicket(deps.db, ctx, ref);
  if (ticket.mergedIntoId) throw new DeskError(404, "not_found", "Ticket not found.");
  const settings = triageSettingsOf(deps, readSettings, ctx.workspaceId);
  const labels = ticketLabelChoices(deps.db, ctx.workspaceId);
  const teams = teamsOfWorkspace(deps.db, ctx.workspaceId).filter(
    (t) => !t.private || ctx.visibleTeams === "all" || ctx.visibleTeams.includes(t.id),
  );
  const messages = listMessages(deps.db, ctx, ticket.id);
  const result = await chatJson<RawTriage>(deps, {
    workspaceId: ctx.workspaceId,
    userId: input.via === "triage" ? actorUserId(ctx) : null,
    feature: "triage",
    slot: "default",
    maxTokens: 500,
    signal,
    json: {
      name: "triage",
      schema: triageSchema({ typeLabels: labels.type, labels: labels.other, teams: teams.map((t) => t.name) }),
    },
    messages: [
      system(
        "You triage a support ticket: judge its priority, severity, category, type, label, sentiment, language,",
        "how likely it is spam, whether a person must handle it, which team should and its risk of missing its deadline.",
        "Choose only among the values the schema offers; use an empty string when no label or team fits. Answer with JSON only.",
      ),
      user(dataBlock("ticket", `Subject: ${ticket.subject}\n\n${threadText(messages, { notes: false })}`)),
    ],
  });
  return applyTriage(deps, ctx, ticket, result.value, {
    model: result.model,
    apply: input.apply === true,
    via: input.via,
    settings,
    typeLabels: labels.type,
    labels: labels.other,
    teams,
  });
}

function applyTriage(
  deps: Deps,
  ctx: RequestContext,
  ticket: TicketRow,
  raw: RawTriage,
  options: {
    model: string;
    apply: boolean;
    via: TriageInput["via"];
    settings: Omit<TriageSettingsView, "auto_triage">;
    typeLabels: string[];
    labels: string[];
    teams: Array<{ id: string; name: string }>;
  },
): TriageJson {
  const now = deps.clock.now().toISOString();
  const allowed = (field: TriageFieldName) => options.apply || options.settings.fields.includes(field);
  const decision = (value: Decision["value"], probability: number | null = null): Decision => ({
    value,
    probability,
    confidence: null,
    applied: false,
  });
  const suggestion = (value: Suggestion["value"], probability: number | null = null): Suggestion => ({
    value,
    confidence: null,
    probability,
    model: options.model,
    decided_at: now,
  });
  const patch: TicketPatch = {};
  const suggestions: AiSuggestions = {};
  const current = presentTickets(deps.db, [ticket])[0]!;
  const currentTags = new Set(current.tags.map((t) => t.name.toLowerCase()));

  const priority = pick(raw.priority, ["low", "normal", "high", "urgent"] as const);
  const severityRaw = pick(raw.severity, ["none", "sev4", "sev3", "sev2", "sev1"] as const);
  const severity = severityRaw === "none" ? null : severityRaw;
  const category = pick(raw.category, CATEGORIES);
  const sentiment = pick<Sentiment>(raw.sentiment, SENTIMENTS);
  const language =
    typeof raw.language === "string" && /^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$/.test(raw.language) ? raw.language : null;
  const typeLabel = pick(raw.type_label, options.typeLabels);
  const label = pick(raw.label, options.labels);
  const team = options.teams.find((t) => t.name === raw.team) ?? null;
  const spamProbability = unit(raw.spam_probability);
  const slaRisk = unit(raw.sla_risk);

  const fields: Record<DecisionKey, Decision> = {
    priority: decision(priority),
    severity: decision(severity),
    category: decision(category),
    type_label: decision(typeLabel),
    label: decision(label),
    sentiment: decision(sentiment),
    language: decision(language),
    spam: decision(spamProbability === null ? null : spamProbability >= 0.5, spamProbability),
    needs_human: decision(typeof raw.needs_human === "boolean" ? raw.needs_human : null),
    team: decision(team?.id ?? null),
    sla_risk: decision(slaRisk, slaRisk),
  };

  if (priority && PRIORITY_RANK[priority]! > PRIORITY_RANK[ticket.priority]!) {
    if (allowed("priority")) {
      patch.priority = priority;
      fields.priority.applied = true;
    } else suggestions.priority = suggestion(priority);
  }
  if (severity && (ticket.severity === null || SEVERITY_RANK[severity]! > SEVERITY_RANK[ticket.severity]!)) {
    if (allowed("severity")) {
      patch.severity = severity;
      fields.severity.applied = true;
    } else suggestions.severity = suggestion(severity);
  }
  const newLabels = [typeLabel, label].filter((n): n is string => !!n && !currentTags.has(n.toLowerCase()));
  if (newLabels.length) {
    if (allowed("labels")) {
      patch.add_tags = newLabels;
      if (typeLabel && newLabels.includes(typeLabel)) fields.type_label.applied = true;
      if (label && newLabels.includes(label)) fields.label.applied = true;
    } else suggestions.labels = suggestion(newLabels);
  }
  if (team && ticket.teamId === null) {
    if (allowed("team")) {
      patch.team_id = team.id;
      fields.team.applied = true;
    } else suggestions.team = suggestion(team.id);
  }
  if (spamProbability !== null && spamProbability >= SPAM_SUGGESTION && !ticket.spam)
    suggestions.spam = suggestion(true, spamProbability);

  const custom: Record<string, unknown> = {};
  if (category) {
    custom.ai_category = category;
    fields.category.applied = true;
  }
  if (sentiment) {
    custom.ai_sentiment = sentiment;
    fields.sentiment.applied = true;
  }
  if (language) {
    custom.language = language;
    fields.language.applied = true;
  }
  const decisions: AiDecisions = {
    engine: "llm",
    model: options.model,
    threshold: options.settings.threshold,
    decided_at: now,
    fields,
  };
  custom.ai_decisions = decisions;
  // A new run replaces what the last one suggested (null removes the member).
  custom.ai_suggestions = Object.keys(suggestions).length ? suggestions : null;
  patch.custom = custom;

  updateTicketByAi(ctx, ticket.id, patch, { via: options.via, model: options.model, confidence: null }, deps);
  return {
    tags: newLabels.length && allowed("labels") ? newLabels : [],
    suggested_tags: (suggestions.labels?.value as string[] | undefined) ?? [],
    priority,
    severity,
    team_id: team?.id ?? null,
    sentiment,
    language,
    category,
    summary: typeof raw.summary === "string" ? raw.summary.slice(0, 1000) : "",
    applied: DECISION_KEYS.filter((key) => fields[key].applied),
    decisions,
    suggestions,
  };
}
