import type { Deps } from "../deps";
import type { AutomationsOptions } from "../automations/automations.public";
import { enqueue } from "../jobs/enqueue";
import type { Job } from "../jobs/define";
import { aiJudge } from "./ai.judge";
import { aiWorkspaceOf } from "./ai.settings";

type TriageJob = Job<{ workspace_id: string; ticket_id: string }, Deps>;

/** Automations' sentiment and ai_decide conditions (one call per automation), and their ai_triage action (a job). */
export const aiForAutomations = (triageJob: TriageJob): AutomationsOptions => ({
  aiJudge: (request, { deps }) =>
    aiJudge(deps, {
      workspaceId: request.workspaceId,
      ticketId: request.ticketId,
      sentiment: request.sentiment,
      questions: request.questions,
    }),
  aiTriage: async (tx, request, deps) => {
    if (!deps.config.ai) return "AI is not configured on this instance (DESK_AI_BASE_URL)";
    if (!(await aiWorkspaceOf(deps, request.workspaceId)).features.enabled) return "AI is off for this workspace";
    const queued = await enqueue(
      tx,
      triageJob,
      { workspace_id: request.workspaceId, ticket_id: request.ticketId },
      { workspaceId: request.workspaceId, uniqueKey: `${triageJob.name}:${request.ticketId}` },
    );
    return queued === null ? "a triage of this ticket is already queued" : null;
  },
});
