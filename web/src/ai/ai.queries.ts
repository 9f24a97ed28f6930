import { useQuery } from "@tanstack/react-query";
import { api, qs } from "../lib/api/client";
import type { AiConfig, AiModel, UsageReport } from "../lib/api/types";
import { defineResource } from "../lib/realtime/invalidation";
import { formatDateTime, formatNumber, t } from "../lib/i18n/i18n";

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

/** The rewrite modes the API takes; their names are in the `ai` catalogue (`ai.rewriteMode`). */
export const REWRITE_MODES = ["friendlier", "more_formal", "shorter", "longer", "fix_grammar", "simplify"] as const;

/** The languages offered for translation; their names are in the `ai` catalogue (`ai.language`). */
export const LANGUAGES = ["en", "de", "fr", "es", "it", "pt", "nl", "pl", "ja", "zh"] as const;

/** US dollars in the reader's language: whole for zero, four decimals below a cent, else two. */
export const formatUsd = (usd: number) => {
  const digits = usd === 0 ? 0 : usd < 0.01 ? 4 : 2;
  return formatNumber(usd, {
    style: "currency",
    currency: "USD",
    minimumFractionDigits: digits,
    maximumFractionDigits: digits,
  });
};

/** A report day (a UTC date, "2026-11-03") as the reader's language writes dates. */
export const formatReportDay = (date: string, options: Intl.DateTimeFormatOptions = { dateStyle: "medium" }) =>
  formatDateTime(`${date}T00:00:00Z`, { ...options, timeZone: "UTC" });

/** An AI feature's name in a report or price list (a feature the catalogue does not name shows as it comes). */
export const featureName = (feature: string) => t("ai.featureName", { feature, name: feature.replace(/_/g, " ") });
