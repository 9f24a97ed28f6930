import type { TriageSettingsReader } from "../ai/ai.public";
import { triageSettingsOf } from "./triage.service";

/** Triage runs obey the workspace's triage settings (GET/PATCH /v1/triage). */
export const triageSettingsForAi: TriageSettingsReader = async (db, workspaceId) => {
  const settings = await triageSettingsOf(db, workspaceId);
  return {
    auto_triage: settings.autoTriage,
    fields: settings.fields,
    threshold: settings.threshold,
    assign_after_triage: settings.assignAfterTriage,
  };
};
