import { useQuery } from "@tanstack/react-query";
import { useAiConfig } from "../ai/ai.queries";
import { api } from "../lib/api/client";

export type Ref = { kind: string; id: string; label: string; number?: number };
export type Step = {
  id: string;
  tool: string;
  label: string;
  status: "running" | "done" | "error" | "awaiting_approval" | "approved" | "denied" | "expired";
  summary?: string;
  refs?: Ref[];
  action_id?: string;
};
export type Preview = {
  title: string;
  summary: string;
  /** `label`, `from_text` and `to_text` are the change in words (names, not ids) for the card. */
  changes: Array<{ field: string; from: unknown; to: unknown; label?: string; from_text?: string; to_text?: string }>;
  targets: Ref[];
  external: boolean;
  body?: string;
  total?: number;
};
export type Approval = {
  action_id: string;
  call_id: string;
  tool: string;
  preview: Preview;
  token?: string;
  expires_at: string;
};
export type Turn = { id: string; role: "user" | "assistant"; text: string; steps: Step[]; created_at: string };
export type Conversation = { id: string; title: string; created_at: string; updated_at: string };
export type ConversationDetail = Conversation & { turns: Turn[]; approval: (Approval & { status: string }) | null };
export type Tip = {
  key: string;
  text: string;
  prompt: string;
  severity: "critical" | "warning" | "info";
  count: number;
};

export const assistantKeys = {
  sessions: ["assistant-sessions"] as const,
  session: (id: string) => ["assistant-session", id] as const,
  tips: ["assistant-tips"] as const,
};

/** The assistant shows when AI is on and the workspace turned `ai.assistant` on. */
export function useAssistantOn(): boolean {
  const config = useAiConfig().data;
  return config?.enabled === true && config.features.enabled && config.features.assistant;
}

export function useConversations(enabled: boolean) {
  return useQuery({
    queryKey: assistantKeys.sessions,
    queryFn: () => api<{ data: Conversation[] }>("/assistant/sessions"),
    enabled,
  });
}

export function useTips(enabled: boolean) {
  return useQuery({
    queryKey: assistantKeys.tips,
    queryFn: () => api<{ tips: Tip[] }>("/assistant/tips"),
    enabled,
    staleTime: 60_000,
  });
}

/** Another part of the page (a tip) asks the assistant something: the panel opens and sends it. */
export const ASK_EVENT = "desk:assistant-ask";
export const askAssistant = (prompt: string) => window.dispatchEvent(new CustomEvent(ASK_EVENT, { detail: prompt }));
