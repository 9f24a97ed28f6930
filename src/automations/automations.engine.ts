import { z } from "zod";
import { systemContext } from "../auth/context";
import type { Queryable, Tx } from "../db/database";
import { transact } from "../db/tx";
import type { Deps } from "../deps";
import { withEventCause } from "../events/cause";
import { type ConsumerContext, defineConsumer, MAX_CAUSE_DEPTH } from "../events/consumers";
import type { StoredEventOf } from "../events/define";
import { defineJob } from "../jobs/define";
import { enqueue } from "../jobs/enqueue";
import { newId } from "../lib/ids";
import type { Logger } from "../lib/logger";
import {
  firstMessageOf,
  messageCreated,
  ticketCreated,
  type TicketRow,
  ticketUpdated,
} from "../tickets/tickets.public";
import { runActions } from "./automations.actions";
import { automationAi, type AutomationsOptions } from "./automations.ai";
import { aiConditionsHold, conditionHolds, everyHolds, isAiCondition, type Facts } from "./automations.conditions";
import type { AutomationTrigger } from "./automations.schemas";
import { automationStatements } from "./automations.statements";
import type { AutomationRunNote } from "./automations.table";
import { rearmTimeRules, timeRulesJob } from "./automations.time-rules";
import {
  AUTOMATIONS_CONSUMER,
  causeOf,
  chainOf,
  factsOf,
  type Loaded,
  liveTicket,
  loadedOf,
  MESSAGE_BOOKKEEPING,
  type TriggerMessage,
} from "./automations.facts";

/**
 * Automations act on an event only when what they append is still handled by every consumer
 * (SLA, notifications, other automations): an event at depth MAX_CAUSE_DEPTH - 1 would make their
 * changes land at the depth nobody handles, so the chain is stopped there instead, and recorded.
 */
export const AUTOMATION_MAX_DEPTH = MAX_CAUSE_DEPTH - 1;

/** What one stored event means for automations: its trigger, ticket and the message it is about. */
type Triggered = {
  trigger: AutomationTrigger;
  ticketId: string;
  message: TriggerMessage;
};

/** The events automations run on: their consumer's. */
const TRIGGER_EVENTS = [ticketCreated, ticketUpdated, messageCreated] as const;

export async function triggerOf(
  db: Queryable,
  event: StoredEventOf<(typeof TRIGGER_EVENTS)[number]>,
): Promise<Triggered | null> {
  if (event.type === "ticket.created")
    return { trigger: "ticket_created", ticketId: event.data.ticket.id, message: null };
  if (event.type === "ticket.updated") {
    const data = event.data;
    const meaningful = data.changes.some((change) => !MESSAGE_BOOKKEEPING.has(change));
    return meaningful ? { trigger: "ticket_updated", ticketId: data.ticket.id, message: null } : null;
  }
  const { ticket_id, message: m } = event.data;
  if (m.kind !== "reply") return null;
  const trigger =
    m.direction === "inbound"
      ? "customer_replied"
      : m.author.type === "user" || m.author.type === "api"
        ? "agent_replied"
        : null;
  // The message a ticket was opened with is part of ticket_created, not a reply.
  if (!trigger || (await firstMessageOf(db, ticket_id))?.id === m.id) return null;
  return { trigger, ticketId: ticket_id, message: m };
}

/** The automations already in this chain of reactions (an automation never re-triggers itself). */
const RunAiPayload = z.object({
  workspace_id: z.string(),
  automation_id: z.string(),
  event_id: z.string(),
  ticket_id: z.string(),
  depth: z.number().int(),
  chain: z.array(z.string()),
  message: z
    .object({ id: z.string(), body_text: z.string(), from_email: z.string(), direction: z.string() })
    .nullable(),
});

/** Stores the run, counts it and (for an applied run) performs the actions, all in the caller's transaction. */
async function perform(
  tx: Tx,
  deps: Deps,
  options: AutomationsOptions,
  run: { automation: Loaded; ticket: TicketRow; eventId: string; depth: number; chain: string[] },
  outcome: "applied" | "stopped",
  logger: Logger,
): Promise<void> {
  const { automation, ticket } = run;
  let notes: AutomationRunNote[] = [];
  if (outcome === "applied") {
    notes = await withEventCause(
      tx,
      { consumer: causeOf([...run.chain, automation.id]), depth: run.depth + 1 },
      async () => await runActions(tx, deps, automation, ticket, options.aiTriage),
    );
  } else {
    logger.warn(
      { automation_id: automation.id, ticket_id: ticket.id, event_id: run.eventId, depth: run.depth },
      "automation not run: the chain of automations is too deep",
    );
    notes = [
      { type: "chain", result: "skipped", reason: `stopped at depth ${run.depth}: too deep a chain of automations` },
    ];
  }
  const now = deps.clock.now().toISOString();
  const s = automationStatements(tx);
  await s.recordRun({
    id: newId(),
    workspaceId: ticket.workspaceId,
    automationId: automation.id,
    eventId: run.eventId,
    ticketId: ticket.id,
    outcome,
    depth: run.depth,
    notesJson: JSON.stringify(notes),
    at: now,
  });
  if (outcome === "applied") await s.countRun(automation.id, now);
}

/** Automations whose conditions need the AI: asked outside any transaction, then run as the consumer would. */
const runAiJob = defineJob<typeof RunAiPayload, Deps>({
  name: "automations.run-ai",
  schema: RunAiPayload,
  retry: { maxAttempts: 3 },
  handler: async (payload, { deps, logger, signal }) => {
    const options = deps.ports.get(automationAi);
    const db = deps.db;
    const raw = await automationStatements(db).automation(payload.workspace_id, payload.automation_id);
    if (raw?.enabled !== 1 || (await automationStatements(db).ranOn(payload.automation_id, payload.event_id))) return;
    const automation = loadedOf(raw);
    const ctx = systemContext(payload.workspace_id);
    const before = await liveTicket(db, ctx, payload.ticket_id);
    if (!before) return;
    const facts = factsOf(db, before, payload.message);
    const questions = automation.conditions.filter((c) => c.field === "ai_decide").map((c) => c.question ?? "");
    const judgement = options.aiJudge
      ? await options
          .aiJudge(
            {
              workspaceId: payload.workspace_id,
              ticketId: payload.ticket_id,
              automationId: automation.id,
              text: await facts.body(),
              sentiment: automation.conditions.some((c) => c.field === "sentiment"),
              questions,
            },
            { deps, signal },
          )
          .catch((error: unknown) => {
            logger.warn({ err: error, automation_id: automation.id }, "the AI did not answer an automation");
            return null;
          })
      : null;
    if (!aiConditionsHold(automation.conditions, judgement)) return;
    await transact(db, async (tx) => {
      if (await automationStatements(tx).ranOn(automation.id, payload.event_id)) return;
      const ticket = await liveTicket(tx, ctx, payload.ticket_id);
      if (!ticket) return;
      // The ticket may have changed while the AI thought: the other conditions must still hold.
      const now = factsOf(tx, ticket, payload.message);
      if (
        !(await everyHolds(
          automation.conditions,
          async (c) => isAiCondition(c) || (await conditionHolds(tx, ctx, c, now)),
        ))
      )
        return;
      const run = { automation, ticket, eventId: payload.event_id, depth: payload.depth, chain: payload.chain };
      await perform(tx, deps, options, run, "applied", logger);
    });
  },
});

/**
 * The automations engine for one desk's module: a durable consumer of ticket and message events
 * (its cursor advances with the runs' changes, so a crash neither loses nor repeats a run), and a
 * job for automations whose conditions need the AI (the call happens outside any transaction; the
 * run row makes a retried job run once).
 */
export function automationsEngine() {
  const consumer = defineConsumer({
    name: AUTOMATIONS_CONSUMER,
    events: TRIGGER_EVENTS,
    handle: async (tx, event, { deps, causedBy, depth }: ConsumerContext<Deps>) => {
      const options = deps.ports.get(automationAi);
      await rearmTimeRules(tx, event, causedBy);
      const triggered = await triggerOf(tx, event);
      if (!triggered) return;
      const candidates = await automationStatements(tx).enabledFor(event.workspace_id, triggered.trigger);
      if (candidates.length === 0) return;
      const chain = chainOf(causedBy);
      const ctx = systemContext(event.workspace_id);
      let ticket = await liveTicket(tx, ctx, triggered.ticketId);
      let facts: Facts | null = null;
      for (const raw of candidates) {
        if (!ticket) return;
        if (chain.includes(raw.id)) continue;
        const automation = loadedOf(raw);
        const needsAi = automation.conditions.some(isAiCondition);
        // No engine to ask: its AI conditions cannot hold.
        if (needsAi && !options.aiJudge) continue;
        facts ??= factsOf(tx, ticket, triggered.message);
        const current = facts;
        if (
          !(await everyHolds(
            automation.conditions,
            async (c) => isAiCondition(c) || (await conditionHolds(tx, ctx, c, current)),
          ))
        )
          continue;
        const tooDeep = depth >= AUTOMATION_MAX_DEPTH;
        if (needsAi && !tooDeep) {
          await enqueue(
            tx,
            runAiJob,
            {
              workspace_id: event.workspace_id,
              automation_id: automation.id,
              event_id: event.id,
              ticket_id: ticket.id,
              depth,
              chain,
              message: triggered.message,
            },
            { workspaceId: event.workspace_id, uniqueKey: `automation:${automation.id}:${event.id}` },
          );
          continue;
        }
        // A cursor moved back (a restore, a replay) finds the run already stored: it never runs twice.
        if (await automationStatements(tx).ranOn(automation.id, event.id)) continue;
        const run = { automation, ticket, eventId: event.id, depth, chain };
        await perform(tx, deps, options, run, tooDeep ? "stopped" : "applied", deps.logger);
        if (tooDeep) continue;
        // Later automations see what this one changed.
        ticket = await liveTicket(tx, ctx, ticket.id);
        facts = null;
      }
    },
  });

  return { consumer, jobs: [runAiJob, timeRulesJob()] };
}
