import type OpenAI from "openai";
import { aiWorkspaceOf, providerFailed, providerFor, recordUsage } from "../ai/ai.public";
import type { Deps } from "../deps";
import { DeskError } from "../lib/errors";
import type { ModelMessage } from "./assistant.table";

/**
 * One model turn with tools, streamed: text pieces reach `onText` as they arrive; tool calls are
 * assembled from their pieces. Metered under feature `assistant` like every provider call.
 * (src/ai's `chat` has no tool use: this turn uses its client, key rules and failure handling.)
 */

export type ToolSpec = { name: string; description: string; parameters: Record<string, unknown> };
export type ToolCall = { id: string; name: string; arguments: string };
export type TurnResult = { text: string; calls: ToolCall[]; inputTokens: number; outputTokens: number };

const unsupported = () =>
  new DeskError(501, "ai_unsupported", "The configured AI provider or model does not support tool use.");

/** Providers without tool use refuse the `tools` member (OpenAI-compatible servers answer 400/404/422/501). */
function refusesTools(error: unknown): boolean {
  const status = (error as { status?: unknown })?.status;
  const message = String((error as { message?: unknown })?.message ?? "");
  return (status === 400 || status === 404 || status === 422 || status === 501) && /tool|function/i.test(message);
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
  if (!deps.config.ai) throw new DeskError(403, "assistant_off", "The assistant is off: no AI provider is configured.");
  const { client, source } = await providerFor(deps, input.workspaceId);
  const model = (await aiWorkspaceOf(deps, input.workspaceId)).models.default;
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
    if (error instanceof DeskError) throw error;
    const failed = await providerFailed(deps, { ...input, feature: "assistant", model, source }, error);
    throw refusesTools(error) ? unsupported() : failed;
  }
  const estimate = (s: string) => Math.ceil(s.length / 4);
  const inputTokens =
    usage?.prompt_tokens ?? estimate(input.system + input.messages.map((m) => m.content ?? "").join("\n"));
  const outputTokens = usage?.completion_tokens ?? estimate(text + calls.map((c) => c.arguments).join(""));
  await recordUsage(deps, {
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
