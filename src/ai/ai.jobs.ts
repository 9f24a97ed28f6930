import { z } from "zod";
import { systemContext } from "../auth/context";
import type { Deps } from "../deps";
import { type ConsumerContext, defineConsumer } from "../events/consumers";
import { systemAiMayRun } from "./ai.budget";
import { enqueue } from "../jobs/enqueue";
import { defineJob, type JobContext } from "../jobs/define";
import { DeskError } from "../lib/errors";
import { messageCreated, ticketCreated, ticketOfWorkspace } from "../tickets/tickets.public";
import { summarizeTicket } from "./ai.agent";
import { aiTriage } from "./ai.judge";
import { aiWorkspaceOf } from "./ai.settings";
import { type AssignAfterTriage, type TriageSeams, triageSettingsOf } from "./ai.triage";

/** A thread this long (messages) is kept summarized when `auto_summarize` is on. */
export const AUTO_SUMMARY_MIN_MESSAGES = 4;
/** Messages arriving together are summarized once, this long after the first. */
const SUMMARY_DEBOUNCE_MS = 60_000;

const TicketJob = z.object({ workspace_id: z.string(), ticket_id: z.string() });

/** Provider failures are retried by the runner; a ticket gone or AI turned off ends the job. */
function gone(error: unknown): boolean {
  return error instanceof DeskError && (error.status === 404 || error.status === 422);
}

export type AiBackground = { triage: TriageSeams; assignAfterTriage: AssignAfterTriage | null };

/** Whether new tickets of the workspace are triaged automatically (an engine answers, AI is on for it, auto-triage on). */
export async function autoTriageRuns(deps: Deps, triage: TriageSeams, workspaceId: string): Promise<boolean> {
  if (!deps.config.ai && !triage.engine) return false;
  if (!(await aiWorkspaceOf(deps, workspaceId)).features.enabled) return false;
  return (await triageSettingsOf(deps, triage.readSettings, workspaceId)).auto_triage;
}

/** Whether an automatic triage runs and then assigns (`assign_after_triage`): assignment on creation waits for it. */
export const assignsAfterTriage =
  (triage: TriageSeams) =>
  async (deps: Deps, workspaceId: string): Promise<boolean> =>
    (await autoTriageRuns(deps, triage, workspaceId)) &&
    (await triageSettingsOf(deps, triage.readSettings, workspaceId)).assign_after_triage;

const summarizeJob = defineJob({
  name: "ai.auto_summarize",
  schema: TicketJob,
  retry: { maxAttempts: 4, baseDelayMs: 30_000 },
  concurrency: 2,
  async handler(payload, { deps, signal }: JobContext<Deps>) {
    if (!(await systemAiMayRun(deps, payload.workspace_id, payload.ticket_id))) return;
    try {
      await summarizeTicket(deps, systemContext(payload.workspace_id), payload.ticket_id, signal);
    } catch (error) {
      if (gone(error)) return;
      throw error;
    }
  },
});

/** Long threads stay summarized: a summary job shortly after new messages, once per burst. */
const autoSummarize = defineConsumer({
  name: "ai.auto-summarize",
  events: [messageCreated],
  async handle(tx, event, { deps }: ConsumerContext<Deps>) {
    if (!deps.config.ai) return;
    const ticketId = event.data.ticket_id;
    const ws = await aiWorkspaceOf(deps, event.workspace_id);
    if (!ws.features.enabled || !ws.features.auto_summarize) return;
    const ticket = await ticketOfWorkspace(tx, event.workspace_id, ticketId);
    if (!ticket || ticket.deletedAt || ticket.messageCount < AUTO_SUMMARY_MIN_MESSAGES) return;
    await enqueue(
      tx,
      summarizeJob,
      { workspace_id: event.workspace_id, ticket_id: ticketId },
      {
        workspaceId: event.workspace_id,
        uniqueKey: `ai.auto_summarize:${ticketId}`,
        runAt: new Date(deps.clock.now().getTime() + SUMMARY_DEBOUNCE_MS),
      },
    );
  },
});

/** The triage jobs and the consumer that enqueues them (made per module: they read the seams, from the desk's ports). */
function aiTriageBackground(seamsOf: (deps: Deps) => AiBackground) {
  /** Triages a ticket for a job; false when the ticket is gone (nothing to do, nothing to retry). */
  const triageFor = async (
    deps: Deps,
    payload: { workspace_id: string; ticket_id: string },
    via: "auto_triage" | "automation",
  ) => {
    // Spent budget: nothing to triage, but a waiting assignment still goes ahead (answers true).
    if (!(await systemAiMayRun(deps, payload.workspace_id, payload.ticket_id))) return true;
    try {
      await aiTriage(seamsOf(deps).triage)(deps, {
        workspaceId: payload.workspace_id,
        ticketId: payload.ticket_id,
        via,
      });
      return true;
    } catch (error) {
      if (gone(error)) return false;
      throw error;
    }
  };

  const triageJob = defineJob({
    name: "ai.auto_triage",
    schema: TicketJob,
    retry: { maxAttempts: 4, baseDelayMs: 30_000 },
    concurrency: 2,
    async handler(payload, { deps }: JobContext<Deps>) {
      if (!(await triageFor(deps, payload, "auto_triage"))) return;
      const seams = seamsOf(deps);
      const settings = await triageSettingsOf(deps, seams.triage.readSettings, payload.workspace_id);
      if (settings.assign_after_triage) await seams.assignAfterTriage?.(deps, payload.workspace_id, payload.ticket_id);
    },
  });

  /** An automation's ai_triage action (queued by the automation, in its transaction). */
  const automationTriageJob = defineJob({
    name: "ai.automation_triage",
    schema: TicketJob,
    retry: { maxAttempts: 4, baseDelayMs: 30_000 },
    concurrency: 2,
    async handler(payload, { deps }: JobContext<Deps>) {
      await triageFor(deps, payload, "automation");
    },
  });

  /** New tickets are triaged when the workspace turned auto-triage on. */
  const autoTriage = defineConsumer({
    name: "ai.auto-triage",
    events: [ticketCreated],
    async handle(tx, event, { deps }: ConsumerContext<Deps>) {
      const ticketId = event.data.ticket.id;
      if (!ticketId || !(await autoTriageRuns(deps, seamsOf(deps).triage, event.workspace_id))) return;
      await enqueue(
        tx,
        triageJob,
        { workspace_id: event.workspace_id, ticket_id: ticketId },
        { workspaceId: event.workspace_id, uniqueKey: `ai.auto_triage:${ticketId}` },
      );
    },
  });

  return { jobs: [triageJob, automationTriageJob], consumers: [autoTriage], automationTriageJob };
}

/** The AI jobs and the consumers that enqueue them. */
export function aiBackground(seamsOf: (deps: Deps) => AiBackground) {
  const triage = aiTriageBackground(seamsOf);
  return {
    jobs: [...triage.jobs, summarizeJob],
    consumers: [...triage.consumers, autoSummarize],
    automationTriageJob: triage.automationTriageJob,
  };
}
