import { Elysia } from "elysia";
import type { Deps } from "../deps";
import { IdParams } from "../http/schemas";
import { askTask, draftArticle, draftTask, rewriteTask, summarizeTicket, translate } from "./ai.agent";
import { AI_REQUESTS_PER_MINUTE, spendAiRequest } from "./ai.budget";
import { aiConfig, aiModels, isOfferedModel } from "./ai.config";
import type { GroundingSources } from "./ai.context";
import { dismissSuggestion } from "./ai.judge";
import {
  AiConfigSchema,
  AiModelsSchema,
  AiSettingsBody,
  ArticleDraftBody,
  ArticleDraftSchema,
  AskBody,
  AskSchema,
  DraftBody,
  DraftSchema,
  RewriteBody,
  RewriteSchema,
  SuggestionParams,
  SummarySchema,
  TranslateBody,
  TranslateSchema,
  TriageBody,
  TriageSchema,
} from "./ai.schemas";
import { aiDisabled, requireAi, updateAiSettings } from "./ai.settings";
import { runOrStream } from "./ai.stream";
import { type TriageSeams, triageTicket } from "./ai.triage";

const viewer = { role: "viewer", scopes: ["tickets:read"] } as const;
const agent = { role: "agent", scopes: ["tickets:write"] } as const;

const STREAMING =
  " With `Accept: text/event-stream` the answer streams: `delta` events `{ text }`, then one `done` event carrying this JSON (an `error` event carries a problem body). Charged once, when it ends; the provider call is cancelled when the client disconnects.";
const FAILURES =
  " 404 `ai_disabled` when no provider is configured or the workspace turned AI off; a provider failure answers 502 (`ai_provider_error`, `ai_unavailable`, `ai_bad_output`, `ai_key_failed`), 503 `ai_rate_limited` or 504 `ai_timeout`; past " +
  `${AI_REQUESTS_PER_MINUTE} AI requests a minute by one person or API key, 429 \`rate_limited\` with Retry-After.`;

export type AiSeams = { grounding: GroundingSources; triage: TriageSeams };

/** Settings, the agent's features on a ticket, rewrite and translate (SPEC.md "AI routes"). */
export function aiRoutes(deps: Deps, seams: AiSeams) {
  return new Elysia({ tags: ["ai"] })
    .use(deps.guard)
    .use(aiSettingsRoutes(deps, seams))
    .use(aiTicketRoutes(deps, seams))
    .use(aiTextRoutes(deps));
}

/** The workspace's AI configuration, its models and settings. */
function aiSettingsRoutes(deps: Deps, seams: AiSeams) {
  return new Elysia({ tags: ["ai"] })
    .use(deps.guard)
    .get("/ai/config", async ({ ctx }) => await aiConfig(deps, ctx.workspaceId, seams.triage.engine), {
      access: { role: "viewer", scopes: ["settings:read"] },
      response: { 200: AiConfigSchema },
      detail: {
        summary: "The workspace's AI configuration",
        description:
          "Answers `enabled: false` when no provider is configured (every other AI route then answers 404 `ai_disabled`). `costs` are typical call costs on the workspace's models (0 on its own key). Besides SPEC.md's members: `widget_model`, `widget_monthly_cap_usd`, `own_key` and `own_key_failed`.",
      },
    })
    .get(
      "/ai/models",
      async ({ ctx }) => {
        await requireAi(deps, ctx.workspaceId);
        return await aiModels(deps, ctx.workspaceId);
      },
      {
        access: { role: "viewer", scopes: ["settings:read"] },
        response: { 200: AiModelsSchema },
        detail: {
          summary: "Models to choose from, with prices",
          description:
            "The models of the price table kept in Desk plus the instance's configured ones. Prices are per million tokens at list price (self-hosted: no markup); `typical_reply_usd` is a draft of 4000 input and 500 output tokens. Both are null when the price is unknown or the workspace uses its own key.",
        },
      },
    )
    .patch(
      "/ai/settings",
      async ({ ctx, body }) => {
        // Not requireAi: an admin must be able to turn AI back on for the workspace.
        if (!deps.config.ai) throw aiDisabled();
        await updateAiSettings(ctx, body, deps, (id) => isOfferedModel(deps, id));
        return await aiConfig(deps, ctx.workspaceId, seams.triage.engine);
      },
      {
        access: { role: "admin", scopes: ["settings:write"] },
        body: AiSettingsBody,
        response: { 200: AiConfigSchema },
        detail: {
          summary: "Change the workspace's AI settings",
          description:
            "Any subset of the features object plus `model`, `fast_model`, `widget_model` (empty string = instance default), `widget_monthly_cap_usd` (0 to 10000, rounded to cents, 0 = no cap, 25 until an admin sets it; it counts the AI agent's answers and the triage and AI-condition calls Desk makes on its own, and once reached the AI agent, auto-triage, summaries and AI conditions stop on chat tickets this UTC month) and `api_key`, the workspace's own provider key (stored sealed, never shown; empty or null removes it). Answers the Config.",
        },
      },
    );
}

/** The agent's features on one ticket: draft, summary, ask, triage, suggestions. */
function aiTicketRoutes(deps: Deps, seams: AiSeams) {
  return new Elysia({ tags: ["ai"] })
    .use(deps.guard)
    .post(
      "/tickets/:id/ai/draft",
      async ({ ctx, params, body, request }) => {
        await spendAiRequest(deps, ctx);
        return runOrStream(deps, request, await draftTask(deps, ctx, params.id, body, seams.grounding));
      },
      {
        access: agent,
        params: IdParams,
        body: DraftBody,
        response: { 200: DraftSchema },
        detail: {
          summary: "Draft a reply",
          description: `Grounded in the thread (notes included, never quoted), the contact's recent tickets and published articles (named in \`sources\`), in the workspace's tone, language and instructions. Nothing is saved.${STREAMING}${FAILURES}`,
        },
      },
    )
    .post(
      "/tickets/:id/ai/summary",
      async ({ ctx, params, request }) => {
        await spendAiRequest(deps, ctx);
        return summarizeTicket(deps, ctx, params.id, request.signal);
      },
      {
        access: viewer,
        params: IdParams,
        response: { 200: SummarySchema },
        detail: {
          summary: "Summarize a ticket",
          description: `Stored on the ticket as \`custom.ai_summary\` and published as \`ticket.updated\` with \`custom\`.${FAILURES}`,
        },
      },
    )
    .post(
      "/tickets/:id/ai/ask",
      async ({ ctx, params, body, request }) => {
        await spendAiRequest(deps, ctx);
        return runOrStream(deps, request, await askTask(deps, ctx, params.id, body.question, seams.grounding));
      },
      {
        access: viewer,
        params: IdParams,
        body: AskBody,
        response: { 200: AskSchema },
        detail: { summary: "Ask about a ticket", description: `Nothing is saved.${STREAMING}${FAILURES}` },
      },
    )
    .post(
      "/tickets/:id/ai/triage",
      async ({ ctx, params, body, request }) => {
        await spendAiRequest(deps, ctx);
        return triageTicket(deps, ctx, params.id, { apply: body.apply, via: "triage" }, seams.triage, request.signal);
      },
      {
        access: agent,
        params: IdParams,
        body: TriageBody,
        response: { 200: TriageSchema },
        detail: {
          summary: "Triage a ticket",
          description:
            "Decides every key of SPEC.md's decision table in one structured-output call and applies them: allowed fields (triage settings) apply, others become `custom.ai_suggestions`; priority and severity are only raised, the team is set only when empty, labels only from the workspace's own (the Type label from the exclusive group named Type); spam is only suggested (probability at least 0.8). `apply: true` applies every decision whatever the allowed fields. Decisions are stored as `custom.ai_decisions`; applied changes are activities of actor `ai` with `{ via, model, confidence }`." +
            FAILURES,
        },
      },
    )
    .delete(
      "/tickets/:id/ai/suggestions/:field",
      async ({ ctx, params, set }) => {
        await dismissSuggestion(deps, ctx, params.id, params.field);
        set.status = 204;
        return null;
      },
      {
        access: agent,
        params: SuggestionParams,
        detail: {
          summary: "Dismiss a suggestion",
          description:
            "Removes the pending suggestion for `priority`, `severity`, `labels`, `team` or `spam` (`ticket.updated` with `custom`); 204 also when there was none.",
        },
      },
    );
}

/** Text work outside a ticket: rewrite, translate, draft an article. */
function aiTextRoutes(deps: Deps) {
  return new Elysia({ tags: ["ai"] })
    .use(deps.guard)
    .post(
      "/ai/rewrite",
      async ({ ctx, body, request }) => {
        await spendAiRequest(deps, ctx);
        return runOrStream(deps, request, await rewriteTask(deps, ctx, body));
      },
      {
        access: agent,
        body: RewriteBody,
        response: { 200: RewriteSchema },
        detail: {
          summary: "Rewrite a reply",
          description: `Modes \`friendlier\`, \`more_formal\`, \`shorter\`, \`longer\`, \`fix_grammar\`, \`simplify\`. HTML in and out, sanitized (also its text).${STREAMING}${FAILURES}`,
        },
      },
    )
    .post(
      "/ai/translate",
      async ({ ctx, body, request }) => {
        await spendAiRequest(deps, ctx);
        return translate(deps, ctx, body, request.signal);
      },
      {
        access: agent,
        body: TranslateBody,
        response: { 200: TranslateSchema },
        detail: {
          summary: "Translate",
          description: `Give \`html\` (answered as sanitized \`html\`) or \`text\`; \`target\` and \`source_language\` are BCP 47 tags (\`und\` when unknown).${FAILURES}`,
        },
      },
    )
    .post(
      "/kb/articles/ai/draft",
      async ({ ctx, body, request }) => {
        await spendAiRequest(deps, ctx);
        return draftArticle(deps, ctx, body, request.signal);
      },
      {
        access: { role: "agent", scopes: ["kb:write"] },
        body: ArticleDraftBody,
        response: { 200: ArticleDraftSchema },
        detail: {
          summary: "Draft a knowledge-base article",
          description: `From a ticket (\`ticket_id\`: how it was solved, private details left out), a \`prompt\`, or both. Nothing is saved.${FAILURES}`,
        },
      },
    );
}
