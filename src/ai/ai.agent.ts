import { actorUserId, type RequestContext } from "../auth/context";
import type { Deps } from "../deps";
import { htmlToText, sanitizeHtmlBody, textToHtml } from "../lib/sanitize";
import { updateTicket } from "../tickets/tickets.public";
import { type GroundingSources, presentSources, ticketContext } from "./ai.context";
import { dataBlock, system, toneLine, user, workspaceInstructions } from "./ai.prompts";
import { type ChatCall, type ChatResult, chat, chatJson } from "./ai.provider";
import { requireAi } from "./ai.settings";

/**
 * The agent's AI features: draft, summary, ask, rewrite, translate and the article draft. Each is
 * prepared first (404s and ai_disabled before anything streams), then run once, plainly or as a
 * stream (ai.stream.ts); `finish` turns the model's text into the route's JSON. Only the summary
 * writes anything (custom.ai_summary, through the tickets feature).
 */
export type AiTask<T> = { call: Omit<ChatCall, "signal" | "onDelta">; finish: (result: ChatResult) => T };

export async function runTask<T>(deps: Deps, task: AiTask<T>, signal?: AbortSignal): Promise<T> {
  return task.finish(await chat(deps, { ...task.call, signal }));
}

const who = (ctx: RequestContext) => ({ workspaceId: ctx.workspaceId, userId: actorUserId(ctx) });

export type SourceJson = { article_id: string; title: string; url: string };
export type DraftJson = { body_html: string; body_text: string; sources: SourceJson[] };

export async function draftTask(
  deps: Deps,
  ctx: RequestContext,
  ref: string,
  input: { instructions?: string; tone?: string },
  grounding: GroundingSources,
): Promise<AiTask<DraftJson>> {
  const ws = await requireAi(deps, ctx.workspaceId);
  const context = await ticketContext(deps, ctx, ref, { notes: true, recent: true, grounding });
  return {
    call: {
      ...who(ctx),
      feature: "draft_reply",
      slot: "default",
      maxTokens: 800,
      messages: [
        system(
          "You write the next reply of a support agent to the customer of this ticket.",
          "Answer the customer's latest message using the thread, the customer's recent tickets and the published articles given.",
          "Do not invent facts, prices, policies or promises; when the material does not tell, say what the agent will check.",
          "Write only the reply's body as plain text paragraphs: no subject line, no placeholders like [Name], no signature.",
          "Internal notes are for agents: use what they say, never quote them to the customer.",
          toneLine(ws.features, input.tone),
          workspaceInstructions(ws.features, input.instructions),
        ),
        user(...context.blocks),
      ],
    },
    finish: (result) => {
      const text = result.text.trim();
      return { body_html: textToHtml(text), body_text: text, sources: presentSources(context.sources) };
    },
  };
}

export const SENTIMENTS = ["positive", "neutral", "negative", "frustrated"] as const;
export type Sentiment = (typeof SENTIMENTS)[number];
export type SummaryJson = { summary: string; key_points: string[]; sentiment: Sentiment; updated_at: string };

const SUMMARY_SCHEMA = {
  type: "object",
  additionalProperties: false,
  required: ["summary", "key_points", "sentiment"],
  properties: {
    summary: { type: "string", description: "two to four sentences" },
    key_points: { type: "array", items: { type: "string" }, maxItems: 8 },
    sentiment: { type: "string", enum: [...SENTIMENTS] },
  },
};

/**
 * Summarizes a ticket and stores it as `custom.ai_summary` (one `ticket.updated` with `custom`).
 * `ctx` is the caller's, or the system's for the auto_summarize job.
 */
export async function summarizeTicket(
  deps: Deps,
  ctx: RequestContext,
  ref: string,
  signal?: AbortSignal,
): Promise<SummaryJson> {
  await requireAi(deps, ctx.workspaceId);
  const context = await ticketContext(deps, ctx, ref, { notes: true, recent: false, grounding: null });
  const result = await chatJson<{ summary?: unknown; key_points?: unknown; sentiment?: unknown }>(deps, {
    ...who(ctx),
    feature: "summarize",
    slot: "fast",
    maxTokens: 600,
    signal,
    json: { name: "ticket_summary", schema: SUMMARY_SCHEMA },
    messages: [
      system(
        "Summarize this support ticket for an agent who has not read it: what the customer wants, what was done, what is pending.",
        "Key points are short facts (order numbers, versions, promises made). Sentiment is the customer's current mood.",
        "Answer with JSON only.",
      ),
      user(...context.blocks),
    ],
  });
  const value = result.value;
  const summary: SummaryJson = {
    summary: typeof value.summary === "string" ? value.summary.trim().slice(0, 4000) : "",
    key_points: Array.isArray(value.key_points)
      ? value.key_points
          .filter((p): p is string => typeof p === "string")
          .slice(0, 8)
          .map((p) => p.slice(0, 500))
      : [],
    sentiment: SENTIMENTS.includes(value.sentiment as Sentiment) ? (value.sentiment as Sentiment) : "neutral",
    updated_at: deps.clock.now().toISOString(),
  };
  await updateTicket(ctx, context.ticket.id, { custom: { ai_summary: summary } }, deps);
  return summary;
}

export type AskJson = { answer_html: string; sources: SourceJson[] };

export async function askTask(
  deps: Deps,
  ctx: RequestContext,
  ref: string,
  question: string,
  grounding: GroundingSources,
): Promise<AiTask<AskJson>> {
  await requireAi(deps, ctx.workspaceId);
  const context = await ticketContext(deps, ctx, ref, { notes: true, recent: true, grounding, query: question });
  return {
    call: {
      ...who(ctx),
      feature: "copilot",
      slot: "default",
      maxTokens: 700,
      messages: [
        system(
          "An agent asks you a question about this support ticket. Answer from the ticket, the customer's recent tickets and the articles given.",
          "Say plainly when they do not tell. Be brief; plain text paragraphs.",
        ),
        user(...context.blocks, `The agent's question: ${question}`),
      ],
    },
    finish: (result) => ({ answer_html: textToHtml(result.text.trim()), sources: presentSources(context.sources) }),
  };
}

export const REWRITE_MODES = ["friendlier", "more_formal", "shorter", "longer", "fix_grammar", "simplify"] as const;
export type RewriteMode = (typeof REWRITE_MODES)[number];

const MODE_TEXT: Record<RewriteMode, string> = {
  friendlier: "Make it warmer and friendlier, keeping every fact.",
  more_formal: "Make it more formal and professional, keeping every fact.",
  shorter: "Make it noticeably shorter, keeping every fact the customer needs.",
  longer: "Expand it with helpful detail and clearer steps, without inventing facts.",
  fix_grammar: "Fix spelling, grammar and punctuation only; change nothing else.",
  simplify: "Use simpler words and shorter sentences, keeping every fact.",
};

export type RewriteJson = { html: string; text: string };

/** Strips a Markdown code fence a model may wrap its HTML in. */
const unfence = (text: string) =>
  text
    .trim()
    .replace(/^```(?:html)?\s*/i, "")
    .replace(/\s*```$/, "");

export async function rewriteTask(deps: Deps, ctx: RequestContext, input: { html: string; mode: RewriteMode }) {
  await requireAi(deps, ctx.workspaceId);
  const task: AiTask<RewriteJson> = {
    call: {
      ...who(ctx),
      feature: "rewrite",
      slot: "fast",
      maxTokens: 1500,
      messages: [
        system(
          "You rewrite a support agent's reply before it is sent.",
          MODE_TEXT[input.mode],
          "Keep the language of the text. Keep links and simple formatting. Answer with the rewritten HTML only (p, br, strong, em, ul, ol, li, a).",
        ),
        user(dataBlock("the reply to rewrite (HTML)", sanitizeHtmlBody(input.html))),
      ],
    },
    finish: (result) => {
      const html = sanitizeHtmlBody(unfence(result.text));
      return { html, text: htmlToText(html) };
    },
  };
  return task;
}

export type TranslateJson = { html?: string; text?: string; source_language: string };

export async function translate(
  deps: Deps,
  ctx: RequestContext,
  input: { html?: string; text?: string; target: string },
  signal?: AbortSignal,
): Promise<TranslateJson> {
  await requireAi(deps, ctx.workspaceId);
  const isHtml = input.html !== undefined;
  const result = await chatJson<{ translation?: unknown; source_language?: unknown }>(deps, {
    ...who(ctx),
    feature: "translate",
    slot: "fast",
    maxTokens: 2000,
    signal,
    json: {
      name: "translation",
      schema: {
        type: "object",
        additionalProperties: false,
        required: ["translation", "source_language"],
        properties: {
          translation: { type: "string" },
          source_language: { type: "string", description: "BCP 47 tag of the original text" },
        },
      },
    },
    messages: [
      system(
        `Translate the text into the language with BCP 47 tag ${input.target}.`,
        isHtml
          ? "The text is HTML: keep its tags and links, translate only the words."
          : "The text is plain text: keep its line breaks.",
        "Answer with JSON only: the translation and the BCP 47 tag of the original language.",
      ),
      user(dataBlock("text to translate", isHtml ? sanitizeHtmlBody(input.html!) : input.text!)),
    ],
  });
  const translation = typeof result.value.translation === "string" ? result.value.translation : "";
  const source = typeof result.value.source_language === "string" ? result.value.source_language : "";
  const source_language = /^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$/.test(source) ? source : "und";
  return isHtml
    ? { html: sanitizeHtmlBody(unfence(translation)), source_language }
    : { text: translation, source_language };
}

export type ArticleDraftJson = { title: string; body_html: string; body_text: string };

/** A knowledge-base article drafted from a ticket (what solved it) or from a prompt; nothing is saved. */
export async function draftArticle(
  deps: Deps,
  ctx: RequestContext,
  input: { ticket_id?: string; prompt?: string },
  signal?: AbortSignal,
): Promise<ArticleDraftJson> {
  const ws = await requireAi(deps, ctx.workspaceId);
  const blocks = input.ticket_id
    ? (await ticketContext(deps, ctx, input.ticket_id, { notes: false, recent: false, grounding: null })).blocks
    : [];
  const result = await chatJson<{ title?: unknown; body_html?: unknown }>(deps, {
    ...who(ctx),
    feature: "kb_draft",
    slot: "default",
    maxTokens: 2500,
    signal,
    json: {
      name: "article_draft",
      schema: {
        type: "object",
        additionalProperties: false,
        required: ["title", "body_html"],
        properties: { title: { type: "string" }, body_html: { type: "string" } },
      },
    },
    messages: [
      system(
        "You draft a help-center article for customers: a clear title and a body in simple HTML (h2, p, ul, ol, li, strong, a).",
        input.ticket_id
          ? "Base it on how this ticket was solved; leave out names, emails, order numbers and anything private."
          : "Base it on the agent's request.",
        toneLine(ws.features),
        workspaceInstructions(ws.features),
        "Answer with JSON only.",
      ),
      user(...blocks, input.prompt ? `The agent's request: ${input.prompt}` : ""),
    ],
  });
  const body_html = sanitizeHtmlBody(typeof result.value.body_html === "string" ? result.value.body_html : "");
  const title = (typeof result.value.title === "string" ? result.value.title : "").trim().slice(0, 200) || "Untitled";
  return { title, body_html, body_text: htmlToText(body_html) };
}
