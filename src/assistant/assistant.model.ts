import type OpenAI from "openai";
import { aiWorkspaceOf, recordUsage } from "../ai/ai.public";
import type { Deps } from "../deps";
import { DeskError } from "../lib/errors";
import type { ModelMessage } from "./assistant.table";

/**
 * One model turn with tools, streamed: text pieces reach `onText` as they arrive; tool calls are
 * assembled from their pieces. Metered under feature `assistant` like every provider call.
 * (src/ai's `chat` has no tool use; this file talks to the same provider with the same key rules.)
 */

export type ToolSpec = { name: string; description: string; parameters: Record<string, unknown> };
export type ToolCall = { id: string; name: string; arguments: string };
export type TurnResult = { text: string; calls: ToolCall[]; inputTokens: number; outputTokens: number };

let openAiModule: Promise<typeof import("openai")> | null = null;
const clients = new Map<string, OpenAI>();

async function clientFor(baseUrl: string, apiKey: string, timeoutMs: number, maxRetries: number) {
  const key = `${baseUrl}\n${apiKey}`;
  const cached = clients.get(key);
  if (cached) return cached;
  openAiModule ??= import("openai");
  const { default: Client } = await openAiModule;
  const client = new Client({ baseURL: baseUrl, apiKey, timeout: timeoutMs, maxRetries });
  if (clients.size > 200) clients.clear();
  clients.set(key, client);
  return client;
}

const unsupported = () =>
  new DeskError(501, "ai_unsupported", "The configured AI provider or model does not support tool use.");

function failure(error: unknown): DeskError {
  const name = (error as { constructor?: { name?: string } })?.constructor?.name ?? "";
  const status = (error as { status?: unknown })?.status;
  const message = String((error as { message?: unknown })?.message ?? "");
  if (name === "APIUserAbortError" || (error as { name?: string })?.name === "AbortError")
    return new DeskError(499, "client_closed", "The caller went away.");
  if (name === "APIConnectionTimeoutError")
    return new DeskError(504, "ai_timeout", "The AI provider did not answer in time. Try again.");
  if (name === "APIConnectionError")
    return new DeskError(502, "ai_unavailable", "The AI provider could not be reached. Try again later.");
  // Providers without tool use refuse the `tools` member (OpenAI-compatible servers answer 400/404/422/501).
  if ((status === 400 || status === 404 || status === 422 || status === 501) && /tool|function/i.test(message))
    return unsupported();
  if (status === 429)
    return new DeskError(
      503,
      "ai_rate_limited",
      "The AI provider is busy (rate limited). Try again shortly.",
      undefined,
      {
        "Retry-After": "10",
      },
    );
  if (typeof status === "number")
    return new DeskError(502, "ai_provider_error", `The AI provider failed (status ${status}).`);
  return new DeskError(502, "ai_bad_output", "The AI provider's answer could not be read.");
}

export async function modelTurn(
  deps: Deps,
  input: {
    workspaceId: string;
    userId: string;
    system: string;
    messages: ModelMessage[];
    tools: ToolSpec[];
    signal?: AbortSignal;
    onText: (piece: string) => void;
  },
): Promise<TurnResult> {
  const ai = deps.config.ai;
  if (!ai) throw new DeskError(403, "assistant_off", "The assistant is off: no AI provider is configured.");
  const ws = aiWorkspaceOf(deps, input.workspaceId);
  const own = ws.ownKeySealed;
  const source = own ? ("own_key" as const) : ("instance" as const);
  const client = await clientFor(ai.baseUrl, own ? deps.secrets.open(own) : ai.apiKey, ai.timeoutMs, ai.maxRetries);
  const model = ws.models.default;
  let text = "";
  const calls: Array<{ id: string; name: string; arguments: string }> = [];
  let usage: { prompt_tokens: number; completion_tokens: number } | null = null;
  try {
    const stream = await client.chat.completions.create(
      {
        model,
        messages: [
          { role: "system", content: input.system },
          ...(input.messages as OpenAI.Chat.Completions.ChatCompletionMessageParam[]),
        ],
        max_tokens: 1200,
        stream: true,
        stream_options: { include_usage: true },
        ...(input.tools.length
          ? {
              tools: input.tools.map((t) => ({
                type: "function" as const,
                function: { name: t.name, description: t.description, parameters: t.parameters },
              })),
            }
          : {}),
      },
      { signal: input.signal },
    );
    for await (const chunk of stream) {
      const delta = chunk.choices[0]?.delta;
      if (delta?.content) {
        text += delta.content;
        input.onText(delta.content);
      }
      for (const piece of delta?.tool_calls ?? []) {
        calls[piece.index] ??= { id: "", name: "", arguments: "" };
        const call = calls[piece.index]!;
        if (piece.id) call.id = piece.id;
        if (piece.function?.name) call.name += piece.function.name;
        if (piece.function?.arguments) call.arguments += piece.function.arguments;
      }
      if (chunk.usage) usage = chunk.usage;
    }
    if (input.signal?.aborted) throw Object.assign(new Error("aborted"), { name: "AbortError" });
  } catch (error) {
    recordUsage(deps, {
      workspaceId: input.workspaceId,
      userId: input.userId,
      feature: "assistant",
      model,
      inputTokens: 0,
      outputTokens: 0,
      source,
      ok: false,
    });
    if (error instanceof DeskError) throw error;
    throw failure(error);
  }
  const estimate = (s: string) => Math.ceil(s.length / 4);
  const inputTokens =
    usage?.prompt_tokens ?? estimate(input.system + input.messages.map((m) => m.content ?? "").join("\n"));
  const outputTokens = usage?.completion_tokens ?? estimate(text + calls.map((c) => c.arguments).join(""));
  recordUsage(deps, {
    workspaceId: input.workspaceId,
    userId: input.userId,
    feature: "assistant",
    model,
    inputTokens,
    outputTokens,
    source,
    ok: true,
  });
  return {
    text,
    calls: calls.filter(Boolean).map((c, i) => ({ ...c, id: c.id || `call_${i}` })),
    inputTokens,
    outputTokens,
  };
}
