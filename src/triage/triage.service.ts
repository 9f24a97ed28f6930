import { eq } from "drizzle-orm";
import type { z } from "zod";
import type { RequestContext } from "../auth/context";
import { recordAudit } from "../audit/audit.public";
import type { Queryable } from "../db/database";
import { withTx } from "../db/tx";
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
export function triageSettingsOf(db: Queryable, workspaceId: string): TriageSettings {
  const row = db.select().from(triageSettings).where(eq(triageSettings.workspaceId, workspaceId)).get();
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
export function presentTriage(db: Queryable, workspaceId: string, deps: Pick<Deps, "config">) {
  const settings = triageSettingsOf(db, workspaceId);
  const ai = deps.config.ai;
  const workspaceAi = workspaceSettingsOf(db, workspaceId)?.settings.ai as { enabled?: unknown } | undefined;
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
export function updateTriage(ctx: RequestContext, patch: TriagePatch, deps: Deps): void {
  const now = deps.clock.now().toISOString();
  withTx(deps.db, (tx) => {
    const current = triageSettingsOf(tx, ctx.workspaceId);
    const next: TriageSettings = {
      autoTriage: patch.auto_triage ?? current.autoTriage,
      fields: patch.fields ?? current.fields,
      assignAfterTriage: patch.assign_after_triage ?? current.assignAfterTriage,
      threshold: patch.threshold ?? current.threshold,
    };
    if (JSON.stringify(next) === JSON.stringify(current)) return;
    tx.insert(triageSettings)
      .values({ workspaceId: ctx.workspaceId, ...next, updatedAt: now })
      .onConflictDoUpdate({
        target: triageSettings.workspaceId,
        set: { ...next, updatedAt: now },
      })
      .run();
    recordAudit(tx, ctx, { action: "triage.updated", entityType: "triage", entityId: ctx.workspaceId, data: patch });
  });
}
