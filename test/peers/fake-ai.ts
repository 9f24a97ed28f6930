/**
 * A local OpenAI-compatible server for tests and benchmarks: chat completions (plain, streamed,
 * JSON-schema output, tool calls), embeddings, and faults on demand (an error status for the next
 * N calls, a slow answer, a key it refuses). Product code talks to it through the real `openai`
 * client, exactly as it would to OpenAI, vLLM, Ollama or llama-server.
 */

export type ChatMessage = {
  role: string;
  content: string | null;
  tool_calls?: Array<{ id: string; type: string; function: { name: string; arguments: string } }>;
  tool_call_id?: string;
};
export type ChatRequest = {
  model: string;
  messages: ChatMessage[];
  stream?: boolean;
  max_tokens?: number;
  max_completion_tokens?: number;
  response_format?: { type: string; json_schema?: { name: string; schema: Record<string, unknown> } };
  tools?: Array<{ type: string; function: { name: string; parameters?: unknown } }>;
};

/** What one chat call answers: text, a JSON value (for JSON-schema output), or a tool call. */
export type FakeAnswer =
  | { text: string }
  | { json: unknown }
  | { tool: { name: string; arguments: unknown } }
  /** Several tool calls in one answer (ids `call_<n>` unless given), optionally after some text. */
  | { tools: Array<{ id?: string; name: string; arguments: unknown }>; text?: string }
  | { status: number; message?: string; headers?: Record<string, string> };

export type RecordedRequest = { path: string; authorization: string | null; body: ChatRequest & { input?: unknown } };

export type FakeAi = {
  url: string;
  port: number;
  /** Every request received, in order. */
  requests: RecordedRequest[];
  /** Chat requests only. */
  chats(): RecordedRequest[];
  /** How each chat call answers (default: a short text echoing the model and the last message). */
  answer: (request: ChatRequest) => FakeAnswer;
  /** The vector each embeddings input gets (default `fakeEmbedding`, 8 numbers); null fails the request (500). */
  embedding: (text: string) => number[] | null;
  /** The next `times` calls (chat or embeddings) answer `status` before anything else. */
  failNext(status: number, times?: number, headers?: Record<string, string>): void;
  /** Wait this long before answering (headers) — and between streamed pieces, `pieceDelayMs`. */
  delayMs: number;
  pieceDelayMs: number;
  /** When set, only these bearer keys are accepted (others get 401 invalid_api_key). */
  validKeys: string[] | null;
  /** Requests whose client went away before the answer ended. */
  aborted: number;
  stop(): Promise<void>;
};

const tokensOf = (text: string) => Math.max(1, Math.ceil(text.length / 4));

/** A deterministic unit vector of `dims` numbers from the text (same text, same vector). */
export function fakeEmbedding(text: string, dims = 8): number[] {
  const v = new Array<number>(dims).fill(0);
  for (let i = 0; i < text.length; i++) v[i % dims]! += (text.charCodeAt(i) % 31) / 31;
  const norm = Math.hypot(...v) || 1;
  return v.map((x) => x / norm);
}

export async function startFakeAi(): Promise<FakeAi> {
  const failures: Array<{ status: number; headers: Record<string, string> }> = [];
  const fake: FakeAi = {
    url: "",
    port: 0,
    requests: [],
    chats: () => fake.requests.filter((r) => r.path.endsWith("/chat/completions")),
    answer: (request) => {
      const last = request.messages.at(-1)?.content ?? "";
      return { text: `Answer from ${request.model}: ${String(last).slice(0, 40)}` };
    },
    embedding: (text) => fakeEmbedding(text),
    failNext(status, times = 1, headers = {}) {
      for (let i = 0; i < times; i++) failures.push({ status, headers });
    },
    delayMs: 0,
    pieceDelayMs: 0,
    validKeys: null,
    aborted: 0,
    stop: async () => {},
  };

  const error = (status: number, message: string, headers: Record<string, string> = {}) =>
    Response.json(
      { error: { message, type: status === 401 ? "invalid_request_error" : "server_error", code: null } },
      { status, headers },
    );

  const server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    idleTimeout: 60,
    async fetch(req) {
      const path = new URL(req.url).pathname;
      const body = (await req.json().catch(() => ({}))) as RecordedRequest["body"];
      const authorization = req.headers.get("authorization");
      fake.requests.push({ path, authorization, body });
      if (fake.validKeys && !fake.validKeys.includes((authorization ?? "").replace(/^Bearer /, "")))
        return error(401, "Incorrect API key provided.");
      const failure = failures.shift();
      if (failure) return error(failure.status, `fake failure ${failure.status}`, failure.headers);
      if (fake.delayMs) {
        await Bun.sleep(fake.delayMs);
        if (req.signal.aborted) {
          fake.aborted++;
          return new Response(null, { status: 499 });
        }
      }
      if (path.endsWith("/embeddings")) {
        const inputs = Array.isArray(body.input) ? (body.input as string[]) : [String(body.input)];
        const vectors = inputs.map((text) => fake.embedding(text));
        if (vectors.some((v) => v === null)) return error(500, "fake embedding failure");
        return Response.json({
          object: "list",
          model: body.model,
          data: vectors.map((embedding, index) => ({ object: "embedding", index, embedding })),
          usage: { prompt_tokens: inputs.reduce((n, t) => n + tokensOf(t), 0), total_tokens: 0 },
        });
      }
      if (!path.endsWith("/chat/completions")) return error(404, "not found");
      const answer = fake.answer(body);
      if ("status" in answer) return error(answer.status, answer.message ?? "fake error", answer.headers);
      const promptTokens = tokensOf(
        body.messages.map((m) => (m.content ?? "") + (m.tool_calls ? JSON.stringify(m.tool_calls) : "")).join("\n") +
          (body.tools ? JSON.stringify(body.tools) : ""),
      );
      const created = Math.floor(performance.timeOrigin / 1000);
      if ("tools" in answer || ("tool" in answer && body.stream)) {
        const calls = ("tools" in answer ? answer.tools : [answer.tool]).map((t, i) => ({
          id: ("id" in t && t.id) || `call_${fake.requests.length}_${i + 1}`,
          type: "function",
          function: { name: t.name, arguments: JSON.stringify(t.arguments) },
        }));
        const lead = "tools" in answer ? (answer.text ?? "") : "";
        const usage = {
          prompt_tokens: promptTokens,
          completion_tokens: tokensOf(lead + calls.map((c) => c.function.arguments).join("")),
          total_tokens: 0,
        };
        if (!body.stream)
          return Response.json({
            id: "chatcmpl-fake",
            object: "chat.completion",
            created,
            model: body.model,
            choices: [
              {
                index: 0,
                finish_reason: "tool_calls",
                message: { role: "assistant", content: lead || null, tool_calls: calls },
              },
            ],
            usage,
          });
        const enc = new TextEncoder();
        const base = { id: "chatcmpl-fake", object: "chat.completion.chunk", created, model: body.model };
        const frames: unknown[] = [];
        if (lead) frames.push({ ...base, choices: [{ index: 0, delta: { role: "assistant", content: lead } }] });
        calls.forEach((c, index) => {
          const half = Math.ceil(c.function.arguments.length / 2);
          frames.push({
            ...base,
            choices: [
              {
                index: 0,
                delta: {
                  tool_calls: [
                    {
                      index,
                      id: c.id,
                      type: "function",
                      function: { name: c.function.name, arguments: c.function.arguments.slice(0, half) },
                    },
                  ],
                },
              },
            ],
          });
          frames.push({
            ...base,
            choices: [
              {
                index: 0,
                delta: { tool_calls: [{ index, function: { arguments: c.function.arguments.slice(half) } }] },
              },
            ],
          });
        });
        frames.push({ ...base, choices: [{ index: 0, delta: {}, finish_reason: "tool_calls" }] });
        frames.push({ ...base, choices: [], usage });
        const text = `${frames.map((f) => `data: ${JSON.stringify(f)}\n\n`).join("")}data: [DONE]\n\n`;
        return new Response(enc.encode(text), { headers: { "content-type": "text/event-stream" } });
      }
      if ("tool" in answer) {
        const args = JSON.stringify(answer.tool.arguments);
        return Response.json({
          id: "chatcmpl-fake",
          object: "chat.completion",
          created,
          model: body.model,
          choices: [
            {
              index: 0,
              finish_reason: "tool_calls",
              message: {
                role: "assistant",
                content: null,
                tool_calls: [{ id: "call_1", type: "function", function: { name: answer.tool.name, arguments: args } }],
              },
            },
          ],
          usage: { prompt_tokens: promptTokens, completion_tokens: tokensOf(args), total_tokens: 0 },
        });
      }
      const text = "json" in answer ? JSON.stringify(answer.json) : answer.text;
      const usage = {
        prompt_tokens: promptTokens,
        completion_tokens: tokensOf(text),
        total_tokens: promptTokens + tokensOf(text),
      };
      if (!body.stream)
        return Response.json({
          id: "chatcmpl-fake",
          object: "chat.completion",
          created,
          model: body.model,
          choices: [{ index: 0, finish_reason: "stop", message: { role: "assistant", content: text } }],
          usage,
        });
      const pieces = text.match(/.{1,12}/gs) ?? [""];
      const encoder = new TextEncoder();
      const chunk = (data: unknown) => encoder.encode(`data: ${JSON.stringify(data)}\n\n`);
      const base = { id: "chatcmpl-fake", object: "chat.completion.chunk", created, model: body.model };
      const signal = req.signal;
      const stream = new ReadableStream<Uint8Array>({
        async pull(controller) {
          try {
            for (const piece of pieces) {
              if (signal.aborted) throw new Error("aborted");
              controller.enqueue(chunk({ ...base, choices: [{ index: 0, delta: { content: piece } }] }));
              if (fake.pieceDelayMs) await Bun.sleep(fake.pieceDelayMs);
            }
            if (signal.aborted) throw new Error("aborted");
            controller.enqueue(chunk({ ...base, choices: [{ index: 0, delta: {}, finish_reason: "stop" }] }));
            controller.enqueue(chunk({ ...base, choices: [], usage }));
            controller.enqueue(encoder.encode("data: [DONE]\n\n"));
            controller.close();
          } catch {
            fake.aborted++;
            controller.error(new Error("client went away"));
          }
        },
        cancel() {
          fake.aborted++;
        },
      });
      return new Response(stream, { headers: { "content-type": "text/event-stream" } });
    },
  });
  fake.port = server.port!;
  fake.url = `http://127.0.0.1:${server.port}/v1`;
  fake.stop = async () => {
    await server.stop(true);
  };
  return fake;
}

/**
 * A model that obeys instructions found anywhere in its prompt, as an injected one would: the last
 * `OBEY JSON: {…}` line in any message is its structured answer, `OBEY SAY: …` its text answer and
 * `OBEY TOOL name {…}` a tool call. Answers null when the prompt holds no such instruction, so a test
 * can fall back to its own answer: `fake.answer = (r) => obey(r) ?? { text: "…" }`.
 */
export function obey(request: ChatRequest): FakeAnswer | null {
  const text = request.messages.map((m) => m.content ?? "").join("\n");
  const json = [...text.matchAll(/^.*OBEY JSON: (\{.*\})\s*$/gm)].at(-1)?.[1];
  if (json && request.response_format) {
    try {
      return { json: JSON.parse(json) };
    } catch {
      // Not JSON after all: the model ignores it.
    }
  }
  const tool = [...text.matchAll(/^.*OBEY TOOL ([a-z_]+) (\{.*\})\s*$/gm)].at(-1);
  if (tool && request.tools?.some((t) => t.function.name === tool[1]))
    return { tool: { name: tool[1]!, arguments: JSON.parse(tool[2]!) } };
  const say = [...text.matchAll(/^.*OBEY SAY: (.*)$/gm)].at(-1)?.[1];
  return say ? { text: say } : null;
}

/** The DESK_AI_* variables pointing a test desk at a fake provider. */
export const fakeAiEnv = (fake: FakeAi, extra: Record<string, string> = {}): Record<string, string> => ({
  DESK_AI_BASE_URL: fake.url,
  DESK_AI_API_KEY: "sk-instance",
  DESK_AI_MODEL: "gpt-4o",
  DESK_AI_FAST_MODEL: "gpt-4o-mini",
  DESK_AI_EMBEDDING_MODEL: "text-embedding-3-small",
  ...extra,
});
