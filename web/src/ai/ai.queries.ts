import { useQuery } from "@tanstack/react-query";
import { api, qs } from "../lib/api/client";
import type { AiConfig, AiModel, UsageReport } from "../lib/api/types";
import { defineResource } from "../lib/realtime/invalidation";

export const aiKeys = {
  config: ["ai-config"] as const,
  models: ["ai-models"] as const,
  usage: ["ai-usage"] as const,
  usageIn: (range: { from?: string; to?: string }) => ["ai-usage", range.from ?? "", range.to ?? ""] as const,
};

/** The AI features object lives in the workspace's settings: a workspace change may change it. */
export const aiResource = defineResource({
  name: "ai",
  keys: aiKeys,
  events: [{ on: ["workspace.*"], invalidate: () => [aiKeys.config, aiKeys.models] }],
});

export function useAiConfig() {
  return useQuery({ queryKey: aiKeys.config, queryFn: () => api<AiConfig>("/ai/config"), staleTime: 60_000 });
}

export function useAiModels(enabled: boolean) {
  return useQuery({
    queryKey: aiKeys.models,
    queryFn: () => api<{ data: AiModel[]; default: string; fast: string }>("/ai/models"),
    enabled,
    staleTime: 60_000,
  });
}

export function useUsageReport(range: { from?: string; to?: string }) {
  return useQuery({
    queryKey: aiKeys.usageIn(range),
    queryFn: () => api<UsageReport>(`/billing/usage${qs(range)}`),
  });
}

/** Whether AI features show for the caller's workspace. */
export function useAiOn(): boolean {
  return useAiConfig().data?.enabled === true;
}

export const REWRITE_MODES = [
  ["friendlier", "Friendlier"],
  ["more_formal", "More formal"],
  ["shorter", "Shorter"],
  ["longer", "Longer"],
  ["fix_grammar", "Fix grammar"],
  ["simplify", "Simplify"],
] as const;

export const LANGUAGES = [
  ["en", "English"],
  ["de", "German"],
  ["fr", "French"],
  ["es", "Spanish"],
  ["it", "Italian"],
  ["pt", "Portuguese"],
  ["nl", "Dutch"],
  ["pl", "Polish"],
  ["ja", "Japanese"],
  ["zh", "Chinese"],
] as const;

export const formatUsd = (usd: number) => (usd === 0 ? "$0" : usd < 0.01 ? `$${usd.toFixed(4)}` : `$${usd.toFixed(2)}`);
