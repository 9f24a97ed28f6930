import { first } from "../db/store";
import { eq } from "drizzle-orm";
import type { RequestContext } from "../auth/context";
import { recordAudit } from "../audit/audit.public";
import type { Db, Queryable } from "../db/database";
import { transact } from "../db/tx";
import type { Deps } from "../deps";
import { DeskError, invalidAt } from "../lib/errors";
import { findWorkspace, updateWorkspace } from "../workspaces/workspaces.public";
import { aiSettings } from "./ai.table";

/** SPEC.md's AI features object, with Desk's defaults for members a workspace never set. */
export type AiFeatures = {
  enabled: boolean;
  auto_triage: boolean;
  auto_summarize: boolean;
  widget_answers: boolean;
  assistant: boolean;
  tone: string;
  reply_language: string;
  instructions: string;
};

export const DEFAULT_FEATURES: AiFeatures = {
  enabled: true,
  auto_triage: false,
  auto_summarize: false,
  widget_answers: false,
  assistant: false,
  tone: "friendly",
  reply_language: "auto",
  instructions: "",
};

export type AiSettingsRow = typeof aiSettings.$inferSelect;

/** What a workspace chose: its features, its models (resolved against the instance's), cap and key. */
export type AiWorkspace = {
  features: AiFeatures;
  models: { default: string; fast: string; widget: string };
  /** The models as the workspace set them ("" = the instance default). */
  chosen: { model: string; fast_model: string; widget_model: string };
  capMicros: number;
  ownKeySealed: string | null;
  ownKeyFailedAt: string | null;
};

export async function featuresOf(db: Db, workspaceId: string): Promise<AiFeatures> {
  const stored =
    ((await findWorkspace(db, workspaceId))?.settings as { ai?: Partial<AiFeatures> } | undefined)?.ai ?? {};
  const features = { ...DEFAULT_FEATURES };
  for (const key of Object.keys(DEFAULT_FEATURES) as Array<keyof AiFeatures>) {
    const value = stored[key];
    if (value !== undefined && value !== null && typeof value === typeof DEFAULT_FEATURES[key])
      (features as Record<string, unknown>)[key] = value;
  }
  return features;
}

export const aiSettingsRowOf = async (db: Queryable, workspaceId: string): Promise<AiSettingsRow | undefined> =>
  first(await db.select().from(aiSettings).where(eq(aiSettings.workspaceId, workspaceId)).limit(1));

/** The monthly cap of a workspace that chose none (README "AI and the assistant"): 25 USD. */
export const DEFAULT_WIDGET_CAP_MICROS = 25_000_000;

export async function aiWorkspaceOf(deps: Pick<Deps, "db" | "config">, workspaceId: string): Promise<AiWorkspace> {
  const row = await aiSettingsRowOf(deps.db, workspaceId);
  const ai = deps.config.ai;
  const chosen = { model: row?.model ?? "", fast_model: row?.fastModel ?? "", widget_model: row?.widgetModel ?? "" };
  return {
    features: await featuresOf(deps.db, workspaceId),
    models: {
      default: chosen.model || ai?.model || "",
      fast: chosen.fast_model || ai?.fastModel || "",
      widget: chosen.widget_model || ai?.widgetModel || "",
    },
    chosen,
    capMicros: row?.widgetCapMicros ?? DEFAULT_WIDGET_CAP_MICROS,
    ownKeySealed: row?.ownKeySealed ?? null,
    ownKeyFailedAt: row?.ownKeyFailedAt ?? null,
  };
}

/** 404 ai_disabled unless the instance has a provider and the workspace has not turned AI off. */
export async function requireAi(deps: Pick<Deps, "db" | "config">, workspaceId: string): Promise<AiWorkspace> {
  if (!deps.config.ai) throw aiDisabled();
  const ws = await aiWorkspaceOf(deps, workspaceId);
  if (!ws.features.enabled) throw aiDisabled("AI is turned off in this workspace's settings.");
  return ws;
}

export const aiDisabled = (detail = "No AI provider is configured on this instance.") =>
  new DeskError(404, "ai_disabled", detail);

export type AiSettingsPatch = Partial<AiFeatures> & {
  model?: string;
  fast_model?: string;
  widget_model?: string;
  widget_monthly_cap_usd?: number;
  /** The workspace's own provider key; "" or null removes it. */
  api_key?: string | null;
};

const FEATURE_KEYS = Object.keys(DEFAULT_FEATURES) as Array<keyof AiFeatures>;

/**
 * PATCH /v1/ai/settings: features go to the workspace's settings (`settings.ai`, through the
 * workspaces feature: `workspace.updated` and its audit entry); models, the cap and the own key
 * to this feature's row (audit `ai.settings_updated`, the key never logged).
 */
export async function updateAiSettings(
  ctx: RequestContext,
  patch: AiSettingsPatch,
  deps: Deps,
  knownModel: (id: string) => boolean,
): Promise<void> {
  for (const key of ["model", "fast_model", "widget_model"] as const) {
    const value = patch[key];
    if (value && !knownModel(value)) throw invalidAt(`body.${key}`, "Not a model of GET /v1/ai/models.");
  }
  const features: Record<string, unknown> = {};
  for (const key of FEATURE_KEYS) if (patch[key] !== undefined) features[key] = patch[key];
  const now = deps.clock.now().toISOString();
  await transact(deps.db, async (tx) => {
    if (Object.keys(features).length) await updateWorkspace(ctx, { settings: { ai: features } }, deps);
    const own: Partial<AiSettingsRow> = {};
    if (patch.model !== undefined) own.model = patch.model;
    if (patch.fast_model !== undefined) own.fastModel = patch.fast_model;
    if (patch.widget_model !== undefined) own.widgetModel = patch.widget_model;
    if (patch.widget_monthly_cap_usd !== undefined)
      own.widgetCapMicros = Math.round(patch.widget_monthly_cap_usd * 100) * 10_000;
    if (patch.api_key !== undefined) {
      own.ownKeySealed = patch.api_key ? deps.secrets.seal(patch.api_key) : null;
      own.ownKeyFailedAt = null;
    }
    if (!Object.keys(own).length) return;
    await tx
      .insert(aiSettings)
      .values({ workspaceId: ctx.workspaceId, ...own, updatedAt: now })
      .onConflictDoUpdate({ target: aiSettings.workspaceId, set: { ...own, updatedAt: now } });
    const { ownKeySealed: _sealed, ...logged } = own;
    await recordAudit(tx, ctx, {
      action: "ai.settings_updated",
      entityType: "workspace",
      entityId: ctx.workspaceId,
      data: { ...logged, ...(patch.api_key !== undefined ? { own_key: patch.api_key ? "set" : "removed" } : {}) },
    });
  });
}

/** Marks the own key refused (once until a new key is set); true when this call is the first to find it. */
export async function markOwnKeyFailed(db: Queryable, workspaceId: string, now: string): Promise<boolean> {
  const row = await aiSettingsRowOf(db, workspaceId);
  if (!row?.ownKeySealed || row.ownKeyFailedAt) return false;
  await db.update(aiSettings).set({ ownKeyFailedAt: now }).where(eq(aiSettings.workspaceId, workspaceId));
  return true;
}
