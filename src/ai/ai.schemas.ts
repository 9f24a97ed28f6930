import { z } from "zod";
import { COST_KEYS } from "./ai.prices";
import { REWRITE_MODES, SENTIMENTS } from "./ai.agent";
import { CATEGORIES, DECISION_KEYS, SUGGESTION_FIELDS } from "./ai.triage.types";

const Usd = z.number().describe("US dollars, up to 6 decimals");

export const AiFeaturesSchema = z.object({
  enabled: z.boolean(),
  auto_triage: z.boolean(),
  auto_summarize: z.boolean(),
  widget_answers: z.boolean(),
  assistant: z.boolean(),
  tone: z.string(),
  reply_language: z.string(),
  instructions: z.string(),
});

const EngineSchema = z.object({
  provider: z.enum(["engine_vendor", "llm", "none"]),
  model: z.string(),
  connected: z.boolean(),
});

export const AiConfigSchema = z.object({
  enabled: z.boolean(),
  provider: z.string().describe("the provider's host, or empty when AI is off"),
  models: z.object({ default: z.string(), fast: z.string() }),
  embeddings: z.boolean(),
  features: AiFeaturesSchema,
  costs: z.object(Object.fromEntries(COST_KEYS.map((k) => [k, Usd])) as Record<(typeof COST_KEYS)[number], typeof Usd>),
  metered: z.boolean(),
  assistant_name: z.string(),
  decisions: EngineSchema,
  widget_model: z.string(),
  widget_monthly_cap_usd: Usd,
  own_key: z.boolean().describe("the workspace calls the provider with its own key (calls cost 0)"),
  own_key_failed: z.boolean().describe("the provider refused the workspace's own key on a call"),
});

export const AiModelSchema = z.object({
  id: z.string(),
  name: z.string(),
  vendor: z.string(),
  context_length: z.number().nullable(),
  usd_per_mtok: z.object({ input: Usd.nullable(), output: Usd.nullable() }),
  typical_reply_usd: Usd.nullable(),
});

export const AiModelsSchema = z.object({ data: z.array(AiModelSchema), default: z.string(), fast: z.string() });

const ModelChoice = z
  .string()
  .trim()
  .max(200)
  .describe("empty string = the instance default, or an id from /v1/ai/models");

export const AiSettingsBody = z
  .object({
    enabled: z.boolean(),
    auto_triage: z.boolean(),
    auto_summarize: z.boolean(),
    widget_answers: z.boolean(),
    assistant: z.boolean(),
    tone: z.string().trim().min(1).max(200),
    reply_language: z
      .string()
      .trim()
      .max(35)
      .regex(/^([A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*|auto)$/, "a BCP 47 language tag or auto"),
    instructions: z.string().max(2000),
    model: ModelChoice,
    fast_model: ModelChoice,
    widget_model: ModelChoice,
    widget_monthly_cap_usd: z.number().min(0).max(10000),
    api_key: z
      .string()
      .trim()
      .max(500)
      .nullable()
      .describe("the workspace's own provider key (write-only; empty or null removes it)"),
  })
  .partial()
  .strict();

export const SourceSchema = z.object({ article_id: z.string(), title: z.string(), url: z.string() });

export const DraftBody = z
  .object({ instructions: z.string().max(2000).optional(), tone: z.string().max(200).optional() })
  .strict();
export const DraftSchema = z.object({ body_html: z.string(), body_text: z.string(), sources: z.array(SourceSchema) });

export const SummarySchema = z.object({
  summary: z.string(),
  key_points: z.array(z.string()),
  sentiment: z.enum(SENTIMENTS),
  updated_at: z.string(),
});

export const AskBody = z.object({ question: z.string().trim().min(1).max(2000) }).strict();
export const AskSchema = z.object({ answer_html: z.string(), sources: z.array(SourceSchema) });

export const RewriteBody = z.object({ html: z.string().min(1).max(100_000), mode: z.enum(REWRITE_MODES) }).strict();
export const RewriteSchema = z.object({ html: z.string(), text: z.string() });

const LanguageTag = z
  .string()
  .trim()
  .regex(/^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$/, "a BCP 47 language tag such as de or pt-BR");
export const TranslateBody = z
  .object({
    html: z.string().min(1).max(100_000).optional(),
    text: z.string().min(1).max(100_000).optional(),
    target: LanguageTag,
  })
  .strict()
  .superRefine((body, ctx) => {
    if ((body.html === undefined) === (body.text === undefined))
      ctx.addIssue({ code: "custom", path: ["html"], message: "give html or text (one of them)" });
  });
export const TranslateSchema = z.object({
  html: z.string().optional(),
  text: z.string().optional(),
  source_language: z.string(),
});

export const ArticleDraftBody = z
  .object({ ticket_id: z.string().min(1).max(100).optional(), prompt: z.string().trim().min(1).max(4000).optional() })
  .strict()
  .superRefine((body, ctx) => {
    if (body.ticket_id === undefined && body.prompt === undefined)
      ctx.addIssue({ code: "custom", path: ["prompt"], message: "give ticket_id, prompt or both" });
  });
export const ArticleDraftSchema = z.object({ title: z.string(), body_html: z.string(), body_text: z.string() });

export const TriageBody = z.object({ apply: z.boolean().optional() }).strict();

const DecisionSchema = z.object({
  value: z.union([z.string(), z.boolean(), z.number()]).nullable(),
  probability: z.number().nullable(),
  confidence: z.number().nullable(),
  applied: z.boolean(),
});
const SuggestionSchema = z.object({
  value: z.union([z.string(), z.array(z.string()), z.boolean()]),
  confidence: z.number().nullable(),
  probability: z.number().nullable(),
  model: z.string(),
  decided_at: z.string(),
});
export const AiDecisionsSchema = z.object({
  engine: z.enum(["engine_vendor", "llm"]),
  model: z.string(),
  threshold: z.number(),
  decided_at: z.string(),
  fields: z.object(
    Object.fromEntries(DECISION_KEYS.map((k) => [k, DecisionSchema])) as Record<
      (typeof DECISION_KEYS)[number],
      typeof DecisionSchema
    >,
  ),
});
export const AiSuggestionsSchema = z.object(
  Object.fromEntries(SUGGESTION_FIELDS.map((k) => [k, SuggestionSchema.optional()])) as Record<
    (typeof SUGGESTION_FIELDS)[number],
    z.ZodOptional<typeof SuggestionSchema>
  >,
);

export const TriageSchema = z.object({
  tags: z.array(z.string()).describe("label names applied by this run"),
  suggested_tags: z.array(z.string()).describe("label names suggested, not applied"),
  priority: z.string().nullable(),
  severity: z.string().nullable(),
  team_id: z.string().nullable(),
  sentiment: z.enum(SENTIMENTS).nullable(),
  language: z.string().nullable(),
  category: z.enum(CATEGORIES).nullable(),
  summary: z.string(),
  applied: z.array(z.enum(DECISION_KEYS)),
  decisions: AiDecisionsSchema,
  suggestions: AiSuggestionsSchema,
});

export const SuggestionParams = z.object({ id: z.string(), field: z.enum(SUGGESTION_FIELDS) });
