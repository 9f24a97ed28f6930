/**
 * List prices of models Desk knows, in USD per million tokens, kept in the code (a provider's API
 * does not tell them). A model not listed here (a local Ollama or llama.cpp model, a fine-tune)
 * has an unknown price: its calls are recorded with their tokens and cost 0.
 */
export type ModelInfo = {
  id: string;
  name: string;
  vendor: string;
  context_length: number | null;
  input: number;
  output: number;
};

const MODELS: ModelInfo[] = [
  { id: "gpt-4o", name: "GPT-4o", vendor: "openai", context_length: 128_000, input: 2.5, output: 10 },
  { id: "gpt-4o-mini", name: "GPT-4o mini", vendor: "openai", context_length: 128_000, input: 0.15, output: 0.6 },
  { id: "gpt-4.1", name: "GPT-4.1", vendor: "openai", context_length: 1_047_576, input: 2, output: 8 },
  { id: "gpt-4.1-mini", name: "GPT-4.1 mini", vendor: "openai", context_length: 1_047_576, input: 0.4, output: 1.6 },
  { id: "gpt-4.1-nano", name: "GPT-4.1 nano", vendor: "openai", context_length: 1_047_576, input: 0.1, output: 0.4 },
  { id: "o4-mini", name: "o4-mini", vendor: "openai", context_length: 200_000, input: 1.1, output: 4.4 },
  { id: "gpt-5", name: "GPT-5", vendor: "openai", context_length: 400_000, input: 1.25, output: 10 },
  { id: "gpt-5-mini", name: "GPT-5 mini", vendor: "openai", context_length: 400_000, input: 0.25, output: 2 },
  {
    id: "text-embedding-3-small",
    name: "Embedding 3 small",
    vendor: "openai",
    context_length: 8191,
    input: 0.02,
    output: 0,
  },
  {
    id: "text-embedding-3-large",
    name: "Embedding 3 large",
    vendor: "openai",
    context_length: 8191,
    input: 0.13,
    output: 0,
  },
  {
    id: "mistral-small-latest",
    name: "Mistral Small",
    vendor: "mistral",
    context_length: 128_000,
    input: 0.1,
    output: 0.3,
  },
  { id: "deepseek-chat", name: "DeepSeek V3", vendor: "deepseek", context_length: 128_000, input: 0.27, output: 1.1 },
];

const BY_ID = new Map(MODELS.map((m) => [m.id, m]));

/** The price entry of a model, also for dated ids (`gpt-4o-2024-08-06` is priced as `gpt-4o`). */
export function modelInfo(id: string): ModelInfo | null {
  const exact = BY_ID.get(id);
  if (exact) return exact;
  const dated = /^(.*)-\d{4}-\d{2}-\d{2}$/.exec(id);
  return dated ? (BY_ID.get(dated[1]!) ?? null) : null;
}

/** Cost of a call in micro-USD at list price (integers: reports add up exactly). */
export function costMicros(model: string, inputTokens: number, outputTokens: number): number {
  const info = modelInfo(model);
  if (!info) return 0;
  // price per million tokens × tokens / 1e6 USD = price × tokens micro-USD
  return Math.round(info.input * inputTokens + info.output * outputTokens);
}

export const microsToUsd = (micros: number): number => Math.round(micros) / 1_000_000;

/** The cost keys of SPEC.md's AI config, and the token profile of a typical call of each. */
export const COST_KEYS = [
  "summarize",
  "rewrite",
  "translate",
  "triage",
  "decide",
  "answer_check",
  "copilot",
  "draft_reply",
  "answer",
  "answer_email",
  "playground",
  "kb_draft",
  "assistant",
] as const;
export type CostKey = (typeof COST_KEYS)[number];

/** Which model slot a feature uses, and the tokens of a typical call (input, output). */
export const FEATURE_PROFILE: Record<CostKey, { slot: "default" | "fast" | "widget"; input: number; output: number }> =
  {
    summarize: { slot: "fast", input: 3000, output: 300 },
    rewrite: { slot: "fast", input: 800, output: 600 },
    translate: { slot: "fast", input: 1000, output: 1000 },
    triage: { slot: "default", input: 2000, output: 300 },
    decide: { slot: "fast", input: 1500, output: 100 },
    answer_check: { slot: "fast", input: 1500, output: 100 },
    copilot: { slot: "default", input: 4000, output: 400 },
    draft_reply: { slot: "default", input: 4000, output: 500 },
    answer: { slot: "widget", input: 3000, output: 400 },
    answer_email: { slot: "widget", input: 4000, output: 500 },
    playground: { slot: "default", input: 4000, output: 500 },
    kb_draft: { slot: "default", input: 4000, output: 1500 },
    assistant: { slot: "default", input: 6000, output: 600 },
  };

/** SPEC.md's typical costs: used when a model's price is unknown, and always for decision-engine features. */
export const FIXED_TYPICAL_USD: Record<CostKey, number> = {
  summarize: 0.01,
  rewrite: 0.01,
  translate: 0.01,
  triage: 0.01,
  decide: 0.01,
  answer_check: 0.01,
  copilot: 0.02,
  draft_reply: 0.03,
  answer: 0.02,
  answer_email: 0.03,
  playground: 0.03,
  kb_draft: 0.05,
  assistant: 0.02,
};

/** The models the price table lists (GET /v1/ai/models adds the instance's own choices). */
export const knownModels = (): readonly ModelInfo[] => MODELS;
