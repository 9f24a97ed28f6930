import { actorUserId, type RequestContext } from "../auth/context";
import type { Db } from "../db/database";
import type { Deps } from "../deps";
import { DeskError } from "../lib/errors";
import { ticketLabelChoices } from "../labels/labels.public";
import { teamsOfWorkspace } from "../teams/teams.public";
import { getTicket, listMessages } from "../tickets/tickets.public";
import { SENTIMENTS } from "./ai.agent";
import { threadText } from "./ai.context";
import { dataBlock, system, user } from "./ai.prompts";
import { recordUsage } from "./ai.metering";
import { applyTriage, llmDecisions } from "./ai.triage.apply";
import {
  type AiDecisions,
  CATEGORIES,
  type RawDecisions,
  type RawTriage,
  type TriageInput,
  type TriageJson,
  type TriageSettingsView,
} from "./ai.triage.types";
import { chatJson } from "./ai.provider";
import { aiDisabled, aiWorkspaceOf } from "./ai.settings";

/** Reads a workspace's triage settings; null = none stored (the defaults of SPEC.md apply). */
export type TriageSettingsReader = (
  db: Db,
  workspaceId: string,
) => (TriageSettingsView | null) | Promise<TriageSettingsView | null>;

/** Runs after an automatic triage when `assign_after_triage` is on (the assignment feature plugs in). */
export type AssignAfterTriage = (deps: Deps, workspaceId: string, ticketId: string) => void | Promise<void>;

export const DEFAULT_TRIAGE: Omit<TriageSettingsView, "auto_triage"> = {
  fields: ["priority", "severity", "labels"],
  threshold: 0.7,
  assign_after_triage: false,
};

/**
 * The triage settings a run obeys. SPEC.md names auto-triage twice (AI `features.auto_triage` and
 * TriageSettings `auto_triage`): either one being on turns it on, so neither screen's switch is ignored.
 */
export async function triageSettingsOf(deps: Deps, read: TriageSettingsReader | null, workspaceId: string) {
  const fromAi = (await aiWorkspaceOf(deps, workspaceId)).features.auto_triage;
  const stored = await read?.(deps.db, workspaceId);
  return stored ? { ...stored, auto_triage: stored.auto_triage || fromAi } : { ...DEFAULT_TRIAGE, auto_triage: fromAi };
}

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

/**
 * A third-party decision engine (`engine_vendor`): decides the keys with a confidence each, which
 * the workspace's threshold gates. Plugged in with `aiModuleWith({ decisionEngine })`; with one, triage
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
 * allowed (triage `fields`) and its confidence is at or above the threshold. The model's decisions
 * carry `confidence: null`: they apply only to the allowed fields (and the informational members:
 * category, sentiment, language); an engine decision without a confidence never counts as above the
 * threshold. Otherwise it is stored as a suggestion. Private teams are never offered. Spam is
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
  const ws = await aiWorkspaceOf(deps, ctx.workspaceId);
  if (!ws.features.enabled) throw aiDisabled("AI is turned off in this workspace's settings.");
  const ticket = await getTicket(deps.db, ctx, ref);
  if (ticket.mergedIntoId) throw new DeskError(404, "not_found", "Ticket not found.");
  const settings = await triageSettingsOf(deps, seams.readSettings, ctx.workspaceId);
  const labels = await ticketLabelChoices(deps.db, ctx.workspaceId);
  // Private teams are never offered (nor accepted: applyTriage matches only these): a customer's words
  // must not move their ticket out of ordinary agents' sight, whoever runs the triage.
  const teams = (await teamsOfWorkspace(deps.db, ctx.workspaceId)).filter((t) => !t.private);
  const choices = { typeLabels: labels.type, labels: labels.other, teams: teams.map((t) => t.name) };
  const text = threadText(await listMessages(deps.db, ctx, ticket.id), { notes: false });
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
  return await applyTriage(deps, ctx, ticket, raw, {
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
    await recordUsage(deps, { ...usage, ...meter, ok: true, fixedMicros: ENGINE_CALL_MICROS });
    return decided;
  } catch (error) {
    await recordUsage(deps, { ...usage, ...meter, ok: false });
    if (error instanceof DeskError) throw error;
    deps.logger.warn({ subsystem: "ai", err: error }, "decision engine failed");
    throw new DeskError(502, "decision_engine_failed", "The decision engine failed. Try again later.");
  }
}
