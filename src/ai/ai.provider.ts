import type OpenAI from "openai";
import { deskState } from "../db/desk-state";
import { transact } from "../db/tx";
import type { Deps } from "../deps";
import { DeskError } from "../lib/errors";
import { adminIdsOfWorkspace } from "../members/members.public";
import { notify } from "../notifications/notifications.public";
import { recordUsage, type UsageFeature } from "./ai.metering";
import { aiDisabled, aiWorkspaceOf, markOwnKeyFailed } from "./ai.settings";
import type { AiSource } from "./ai.table";

/**
 * The one door to the provider: any OpenAI-compatible server (OpenAI, vLLM, Ollama, llama.cpp's
 * llama-server) through the `openai` client, loaded on first use (it is not part of an idle
 * Desk's memory). Every call is metered (ai.metering.ts), retried by the client on 429, 5xx and
 * timeouts with backoff (DESK_AI_MAX_RETRIES, honouring Retry-After), bounded by DESK_AI_TIMEOUT,
 * and cancelled with the caller's AbortSignal. A failure is a 502-class problem body.
 */

export type ChatMessage = { role: "system" | "user" | "assistant"; content: string };

export type ChatCall = {
  workspaceId: string;
  /** The member asking; null for automations, jobs and the AI agent. */
  userId: string | null;
  feature: UsageFeature;
  /** Which of the workspace's models: default (drafts, triage), fast (rewrite, summaries), widget. */
  slot: "default" | "fast" | "widget";
  messages: ChatMessage[];
  maxTokens: number;
  /** Structured output: the answer is JSON matching this schema. */
  json?: { name: string; schema: Record<string, unknown> };
  signal?: AbortSignal;
  /** Streams: called with each piece of text as it arrives. */
  onDelta?: (text: string) => void;
};

export type ChatResult = {
  text: string;
  model: string;
  source: AiSource;
  inputTokens: number;
  outputTokens: number;
  usdMicros: number;
};

type ProviderKey = { baseUrl: string; apiKey: string; source: AiSource };

type OpenAiModule = typeof import("openai");
const clientsOf = deskState("ai.clients", () => new Map<string, OpenAI>());
let openAiModule: Promise<OpenAiModule> | null = null;

/** The `openai` package, imported once on the first AI call. */
const loadOpenAi = (): Promise<OpenAiModule> => {
  openAiModule ??= import("openai");
  return openAiModule;
};

async function clientFor(deps: Pick<Deps, "db" | "config">, key: ProviderKey): Promise<OpenAI> {
  const ai = deps.config.ai!;
  const cacheKey = `${key.baseUrl}\n${key.apiKey}`;
  const clients = clientsOf(deps.db);
  const cached = clients.get(cacheKey);
  if (cached) return cached;
  const { default: Client } = await loadOpenAi();
  const client = new Client({
    baseURL: key.baseUrl,
    apiKey: key.apiKey,
    timeout: ai.timeoutMs,
    maxRetries: ai.maxRetries,
  });
  // A workspace's key is dropped when it changes; keep the cache from growing without bound.
  if (clients.size > 200) clients.clear();
  clients.set(cacheKey, client);
  return client;
}

async function keyFor(deps: Pick<Deps, "db" | "config" | "secrets">, workspaceId: string): Promise<ProviderKey> {
  const ai = deps.config.ai;
  if (!ai) throw aiDisabled();
  const sealed = (await aiWorkspaceOf(deps, workspaceId)).ownKeySealed;
  if (sealed) return { baseUrl: ai.baseUrl, apiKey: deps.secrets.open(sealed), source: "own_key" };
  return { baseUrl: ai.baseUrl, apiKey: ai.apiKey, source: "instance" };
}

/** Rough token count when a provider reports no usage (some local servers do not while streaming). */
const estimateTokens = (text: string) => Math.ceil(text.length / 4);

type ProviderFailure = { status: number | null; kind: "aborted" | "timeout" | "connection" | "api" | "output" };

function classify(error: unknown): ProviderFailure {
  const name = (error as { constructor?: { name?: string } })?.constructor?.name ?? "";
  const status = (error as { status?: unknown })?.status;
  if (name === "APIUserAbortError" || (error as { name?: string })?.name === "AbortError")
    return { status: null, kind: "aborted" };
  if (name === "APIConnectionTimeoutError") return { status: null, kind: "timeout" };
  if (name === "APIConnectionError") return { status: null, kind: "connection" };
  if (typeof status === "number") return { status, kind: "api" };
  return { status: null, kind: "output" };
}

/** The problem body a provider failure answers: never a stack, never the provider's own message verbatim. */
function failureError(failure: ProviderFailure, source: AiSource): DeskError {
  if (failure.kind === "aborted") return new DeskError(499, "client_closed", "The caller went away.");
  if (failure.kind === "timeout")
    return new DeskError(504, "ai_timeout", "The AI provider did not answer in time. Try again.");
  if (failure.kind === "connection")
    return new DeskError(502, "ai_unavailable", "The AI provider could not be reached. Try again later.");
  if (failure.status === 401 || failure.status === 403)
    return source === "own_key"
      ? new DeskError(502, "ai_key_failed", "The workspace's own AI provider key was refused by the provider.")
      : new DeskError(502, "ai_provider_error", "The AI provider refused the instance's credentials.");
  if (failure.status === 429)
    return new DeskError(
      503,
      "ai_rate_limited",
      "The AI provider is busy (rate limited). Try again shortly.",
      undefined,
      {
        "Retry-After": "10",
      },
    );
  if (failure.kind === "output")
    return new DeskError(502, "ai_bad_output", "The AI provider's answer could not be read.");
  return new DeskError(502, "ai_provider_error", `The AI provider failed (status ${failure.status}).`);
}

/**
 * The provider client for a workspace: its own key when it has one (calls cost it nothing), else the
 * instance's. For provider calls `chat` does not cover (the assistant's tool use).
 */
export async function providerFor(
  deps: Pick<Deps, "db" | "config" | "secrets">,
  workspaceId: string,
): Promise<{ client: OpenAI; source: AiSource }> {
  const key = await keyFor(deps, workspaceId);
  return { client: await clientFor(deps, key), source: key.source };
}

/**
 * What a failed provider call leaves: a failed usage record (cost 0), the `ai_key_failed` notice when
 * the workspace's own key was refused, a log line; answers the problem to throw.
 */
export async function providerFailed(
  deps: Deps,
  call: { workspaceId: string; userId: string | null; feature: UsageFeature; model: string; source: AiSource },
  error: unknown,
): Promise<DeskError> {
  const failure = classify(error);
  await recordUsage(deps, {
    workspaceId: call.workspaceId,
    userId: call.userId,
    feature: call.feature,
    model: call.model,
    inputTokens: 0,
    outputTokens: 0,
    source: call.source,
    ok: false,
  });
  if (call.source === "own_key" && (failure.status === 401 || failure.status === 403))
    await ownKeyRefused(deps, call.workspaceId);
  else if (failure.kind !== "aborted")
    deps.logger.warn({ subsystem: "ai", feature: call.feature, model: call.model, failure }, "AI provider call failed");
  return failureError(failure, call.source);
}

/** Runs one chat completion (streamed when `onDelta` is given), metered once it ends, success or not. */
export async function chat(deps: Deps, call: ChatCall): Promise<ChatResult> {
  const key = await keyFor(deps, call.workspaceId);
  const ws = await aiWorkspaceOf(deps, call.workspaceId);
  const model = ws.models[call.slot];
  const client = await clientFor(deps, key);
  const responseFormat = call.json
    ? { type: "json_schema" as const, json_schema: { name: call.json.name, schema: call.json.schema, strict: true } }
    : undefined;
  let text = "";
  let usage: { prompt_tokens: number; completion_tokens: number } | null = null;
  try {
    if (call.onDelta) {
      const stream = await client.chat.completions.create(
        {
          model,
          messages: call.messages,
          max_tokens: call.maxTokens,
          stream: true,
          stream_options: { include_usage: true },
          ...(responseFormat ? { response_format: responseFormat } : {}),
        },
        { signal: call.signal },
      );
      for await (const chunk of stream) {
        const piece = chunk.choices[0]?.delta?.content;
        if (piece) {
          text += piece;
          call.onDelta(piece);
        }
        if (chunk.usage) usage = chunk.usage;
      }
      // The client's stream may end quietly when aborted: a cut-short answer is no answer.
      if (call.signal?.aborted) throw Object.assign(new Error("aborted"), { name: "AbortError" });
    } else {
      const answer = await client.chat.completions.create(
        {
          model,
          messages: call.messages,
          max_tokens: call.maxTokens,
          ...(responseFormat ? { response_format: responseFormat } : {}),
        },
        { signal: call.signal },
      );
      text = answer.choices[0]?.message?.content ?? "";
      usage = answer.usage ?? null;
    }
  } catch (error) {
    throw await providerFailed(deps, { ...call, model, source: key.source }, error);
  }
  const inputTokens = usage?.prompt_tokens ?? estimateTokens(call.messages.map((m) => m.content).join("\n"));
  const outputTokens = usage?.completion_tokens ?? estimateTokens(text);
  const usdMicros = await recordUsage(deps, {
    workspaceId: call.workspaceId,
    userId: call.userId,
    feature: call.feature,
    model,
    inputTokens,
    outputTokens,
    source: key.source,
    ok: true,
  });
  return { text, model, source: key.source, inputTokens, outputTokens, usdMicros };
}

/** A chat whose answer is JSON matching `call.json`: parsed, or 502 ai_bad_output. */
export async function chatJson<T>(deps: Deps, call: ChatCall & { json: NonNullable<ChatCall["json"]> }) {
  const result = await chat(deps, call);
  const start = result.text.indexOf("{");
  const end = result.text.lastIndexOf("}");
  try {
    return { ...result, value: JSON.parse(result.text.slice(start, end + 1)) as T };
  } catch {
    throw failureError({ status: null, kind: "output" }, result.source);
  }
}

/**
 * Embeddings of texts on the instance's embedding model (null when none is configured): the seam
 * semantic search builds on. Indexing is free: recorded with its tokens, costing 0.
 */
export async function embed(
  deps: Deps,
  input: { workspaceId: string; texts: string[]; signal?: AbortSignal },
): Promise<number[][] | null> {
  const ai = deps.config.ai;
  if (!ai?.embeddingModel) return null;
  const key = await keyFor(deps, input.workspaceId);
  const client = await clientFor(deps, key);
  try {
    const answer = await client.embeddings.create(
      { model: ai.embeddingModel, input: input.texts },
      { signal: input.signal },
    );
    await recordUsage(deps, {
      workspaceId: input.workspaceId,
      userId: null,
      feature: "search_index",
      model: ai.embeddingModel,
      inputTokens: answer.usage?.prompt_tokens ?? 0,
      outputTokens: 0,
      source: key.source,
      ok: true,
      free: true,
    });
    return answer.data.sort((a, b) => a.index - b.index).map((d) => d.embedding);
  } catch (error) {
    const failure = classify(error);
    if (key.source === "own_key" && (failure.status === 401 || failure.status === 403))
      await ownKeyRefused(deps, input.workspaceId);
    throw failureError(failure, key.source);
  }
}

/** The provider refused the workspace's own key: owners and admins hear it once (`ai_key_failed`). */
async function ownKeyRefused(deps: Deps, workspaceId: string): Promise<void> {
  await transact(deps.db, async (tx) => {
    if (!(await markOwnKeyFailed(tx, workspaceId, deps.clock.now().toISOString()))) return;
    const provider = new URL(deps.config.ai!.baseUrl).host;
    for (const userId of await adminIdsOfWorkspace(tx, workspaceId))
      await notify(
        tx,
        {
          workspaceId,
          userId,
          type: "ai_key_failed",
          ticket: null,
          data: { provider, reason: "The provider refused the workspace's API key." },
        },
        deps.clock,
      );
  });
}
