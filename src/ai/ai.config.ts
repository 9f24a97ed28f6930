import type { Deps } from "../deps";
import { type CostKey, COST_KEYS, FEATURE_PROFILE, FIXED_TYPICAL_USD, knownModels, modelInfo } from "./ai.prices";
import { aiWorkspaceOf, DEFAULT_FEATURES } from "./ai.settings";
import type { DecisionEngine } from "./ai.triage";

/** Decision-engine features keep SPEC.md's fixed typical cost. */
const ENGINE_FEATURES: CostKey[] = ["triage", "decide", "answer_check"];

const round6 = (usd: number) => Math.round(usd * 1_000_000) / 1_000_000;

/** USD of a call of `input`/`output` tokens on a model at list price; null when its price is unknown. */
function callUsd(model: string, input: number, output: number): number | null {
  const info = modelInfo(model);
  return info ? round6((info.input * input + info.output * output) / 1_000_000) : null;
}

/** GET /v1/ai/config. */
export async function aiConfig(deps: Deps, workspaceId: string, engine: DecisionEngine | null = null) {
  const ai = deps.config.ai;
  const ws = await aiWorkspaceOf(deps, workspaceId);
  const ownKey = ws.ownKeySealed !== null;
  const costs = Object.fromEntries(
    COST_KEYS.map((key) => {
      if (!ai || ownKey) return [key, 0];
      if (ENGINE_FEATURES.includes(key)) return [key, FIXED_TYPICAL_USD[key]];
      const profile = FEATURE_PROFILE[key];
      return [key, callUsd(ws.models[profile.slot], profile.input, profile.output) ?? FIXED_TYPICAL_USD[key]];
    }),
  ) as Record<CostKey, number>;
  return {
    enabled: ai !== null && ws.features.enabled,
    provider: ai ? new URL(ai.baseUrl).host : "",
    models: { default: ai ? ws.models.default : "", fast: ai ? ws.models.fast : "" },
    embeddings: ai?.embeddingModel != null,
    features: ai ? ws.features : { ...DEFAULT_FEATURES, enabled: false },
    costs,
    metered: true,
    assistant_name: "Assistant",
    decisions: engine
      ? { provider: "engine_vendor" as const, model: engine.model, connected: true }
      : {
          provider: ai ? ("llm" as const) : ("none" as const),
          model: ai ? ws.models.default : "",
          connected: ai !== null,
        },
    widget_model: ai ? ws.models.widget : "",
    widget_monthly_cap_usd: ws.capMicros / 1_000_000,
    own_key: ownKey,
    own_key_failed: ownKey && ws.ownKeyFailedAt !== null,
  };
}

/** The price table's models plus the instance's configured ones (a local model has no price). */
function offeredModelIds(deps: Deps): string[] {
  const ai = deps.config.ai;
  const ids = new Set(knownModels().map((m) => m.id));
  if (ai) for (const id of [ai.model, ai.fastModel, ai.widgetModel]) ids.add(id);
  return [...ids];
}

export const isOfferedModel = (deps: Deps, id: string): boolean => offeredModelIds(deps).includes(id);

/** GET /v1/ai/models. */
export async function aiModels(deps: Deps, workspaceId: string) {
  const ws = await aiWorkspaceOf(deps, workspaceId);
  const ownKey = ws.ownKeySealed !== null;
  const data = offeredModelIds(deps).map((id) => {
    const info = modelInfo(id);
    const priced = info && !ownKey;
    return {
      id,
      name: info?.name ?? id,
      vendor: info?.vendor ?? "custom",
      context_length: info?.context_length ?? null,
      usd_per_mtok: { input: priced ? info.input : null, output: priced ? info.output : null },
      typical_reply_usd: priced ? callUsd(id, 4000, 500) : null,
    };
  });
  return { data, default: ws.models.default, fast: ws.models.fast };
}
