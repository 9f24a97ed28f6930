import { first } from "../db/store";
import { eq } from "drizzle-orm";
import type { z } from "zod";
import type { RequestContext } from "../auth/context";
import { recordAudit } from "../audit/audit.public";
import type { Queryable } from "../db/database";
import { transact } from "../db/tx";
import type { Deps } from "../deps";
import { workspaceSettingsOf } from "../workspaces/workspaces.public";
import type { TriageField, TriagePatch, TriageSettingsSchema } from "./triage.schemas";
import { triageSettings } from "./triage.table";

/** What the AI engine reads before a triage run (`triageSettingsOf` in triage.public.ts). */
export type TriageSettings = {
  autoTriage: boolean;
  fields: TriageField[];
  assignAfterTriage: boolean;
  threshold: number;
};

export const DEFAULT_TRIAGE: TriageSettings = {
  autoTriage: false,
  fields: ["priority", "severity", "labels"],
  assignAfterTriage: false,
  threshold: 0.7,
};

/** The workspace's triage settings, the defaults of SPEC.md where nothing was saved. */
export async function triageSettingsOf(db: Queryable, workspaceId: string): Promise<TriageSettings> {
  const row = first(await db.select().from(triageSettings).where(eq(triageSettings.workspaceId, workspaceId)).limit(1));
  if (!row) return { ...DEFAULT_TRIAGE, fields: [...DEFAULT_TRIAGE.fields] };
  return {
    autoTriage: row.autoTriage,
    fields: row.fields as TriageField[],
    assignAfterTriage: row.assignAfterTriage,
    threshold: row.threshold,
  };
}

/**
 * TriageSettings as the API answers them. The engine is the configured AI model (`llm`, no
 * confidence gate) when DESK_AI_* is set, else none; no third-party decision engine is built in.
 * `available` needs an engine and AI not switched off for the workspace (`settings.ai.enabled`).
 */
export async function presentTriage(db: Queryable, workspaceId: string, deps: Pick<Deps, "config">) {
  const settings = await triageSettingsOf(db, workspaceId);
  const ai = deps.config.ai;
  const workspaceAi = (await workspaceSettingsOf(db, workspaceId))?.settings.ai as { enabled?: unknown } | undefined;
  const aiOn = workspaceAi?.enabled !== false;
  return {
    auto_triage: settings.autoTriage,
    fields: settings.fields,
    assign_after_triage: settings.assignAfterTriage,
    threshold: settings.threshold,
    engine: { provider: ai ? "llm" : "none", model: ai?.model ?? "", connected: ai !== null },
    available: ai !== null && aiOn,
  } satisfies z.infer<typeof TriageSettingsSchema>;
}

/** Merges a patch into the stored settings; audit-logged as `triage.updated` when something changed. */
export async function updateTriage(ctx: RequestContext, patch: TriagePatch, deps: Deps): Promise<void> {
  const now = deps.clock.now().toISOString();
  await transact(deps.db, async (tx) => {
    const current = await triageSettingsOf(tx, ctx.workspaceId);
    const next: TriageSettings = {
      autoTriage: patch.auto_triage ?? current.autoTriage,
      fields: patch.fields ?? current.fields,
      assignAfterTriage: patch.assign_after_triage ?? current.assignAfterTriage,
      threshold: patch.threshold ?? current.threshold,
    };
    if (JSON.stringify(next) === JSON.stringify(current)) return;
    await tx
      .insert(triageSettings)
      .values({ workspaceId: ctx.workspaceId, ...next, updatedAt: now })
      .onConflictDoUpdate({
        target: triageSettings.workspaceId,
        set: { ...next, updatedAt: now },
      });
    await recordAudit(tx, ctx, {
      action: "triage.updated",
      entityType: "triage",
      entityId: ctx.workspaceId,
      data: patch,
    });
  });
}
