import { z } from "zod";
import { systemContext } from "../auth/context";
import type { Queryable, Tx } from "../db/database";
import { transact } from "../db/tx";
import type { Deps } from "../deps";
import { withEventCause } from "../events/cause";
import type { StoredEventOf } from "../events/define";
import { defineJob, type JobContext } from "../jobs/define";
import { newId } from "../lib/ids";
import {
  breachedTicketTimes,
  type messageCreated,
  type ticketCreated,
  ticketTimesInRange,
  type ticketUpdated,
  type TicketStatus,
  type TicketTimes,
  type TimeCursor,
} from "../tickets/tickets.public";
import { runActions } from "./automations.actions";
import { automationAi, type AutomationsOptions } from "./automations.ai";
import { conditionHolds, everyHolds } from "./automations.conditions";
import { causeOf, chainOf, factsOf, liveTicket, type Loaded, loadedOf, MESSAGE_BOOKKEEPING } from "./automations.facts";
import { automationStatements } from "./automations.statements";
import { isTimeCondition, planOf, TIME_RUN_PREFIX, type TimePlan, timeConditionsHold } from "./automations.time";

/**
 * Tickets a pass reads per rule and status from the newest end of its range (those whose time just
 * came), then from where the previous pass stopped (tickets the rule acted on that changed since).
 */
const HEAD_PAGE = 100;
const SWEEP_PAGE = 200;
/** Tickets one pass reads per workspace, all its time rules together: the rest wait for the next pass. */
const TIME_RULE_BUDGET = 2_000;
/** Workspaces one pass visits, in turn from where the previous pass stopped. */
const WORKSPACES_PER_PASS = 5_000;

/** The events of the automations consumer that may re-arm a time rule. */
type TicketEvent = StoredEventOf<typeof ticketCreated | typeof ticketUpdated | typeof messageCreated>;

/** The ticket a stored event changed, when it is a change of the ticket (not a message's bookkeeping or its SLA). */
function changedTicketOf(event: TicketEvent): string | null {
  if (event.type === "ticket.updated") {
    const data = event.data;
    return data.changes.some((change) => !MESSAGE_BOOKKEEPING.has(change)) ? data.ticket.id : null;
  }
  if (event.type === "message.created") return event.data.ticket_id;
  return null;
}

/**
 * A ticket changed: the time rules that acted on it before the change may act again. Changes the
 * rule caused (its own actions, and the reactions of event rules to them, whose events carry the
 * rule in their chain) do not count, nor do events older than the rule's action (read late).
 */
export async function rearmTimeRules(tx: Tx, event: TicketEvent, causedBy: string | null): Promise<void> {
  const ticketId = changedTicketOf(event);
  if (ticketId) await automationStatements(tx).rearm(ticketId, event.occurred_at, chainOf(causedBy));
}

/** Where each rule's sweep stopped, per status (lost on restart: the sweep then starts over, nothing is missed). */
export type SweepCursors = Map<string, TimeCursor>;

type Candidate = TicketTimes & { at: string };

async function readPage(
  db: Queryable,
  workspaceId: string,
  plan: TimePlan,
  status: TicketStatus,
  cursor: TimeCursor | null,
  limit: number,
): Promise<Candidate[]> {
  const { driver } = plan;
  if (driver.kind === "breached")
    return await breachedTicketTimes(db, workspaceId, { status, cursorId: cursor?.id ?? null, limit });
  return await ticketTimesInRange(db, workspaceId, {
    status,
    column: driver.column,
    from: driver.from,
    to: driver.to,
    cursor,
    limit,
  });
}

/** The candidates of one rule this pass: index reads only, at most `budget` rows. */
async function candidatesOf(
  db: Queryable,
  workspaceId: string,
  rule: Loaded,
  plan: TimePlan,
  cursors: SweepCursors,
  budget: number,
): Promise<{ candidates: Map<string, Candidate>; examined: number }> {
  const candidates = new Map<string, Candidate>();
  let examined = 0;
  for (const status of plan.statuses) {
    const headLimit = Math.min(HEAD_PAGE, budget - examined);
    if (headLimit <= 0) break;
    const head = await readPage(db, workspaceId, plan, status, null, headLimit);
    examined += head.length;
    for (const row of head) candidates.set(row.ticketId, row);
    const key = `${rule.id}:${status}`;
    const sweepLimit = Math.min(SWEEP_PAGE, budget - examined);
    if (head.length < HEAD_PAGE || sweepLimit <= 0) {
      if (head.length < HEAD_PAGE) cursors.delete(key);
      continue;
    }
    const last = head.at(-1)!;
    const from = cursors.get(key) ?? { at: last.at, id: last.ticketId };
    const sweep = await readPage(db, workspaceId, plan, status, from, sweepLimit);
    examined += sweep.length;
    for (const row of sweep) candidates.set(row.ticketId, row);
    const end = sweep.at(-1);
    if (sweep.length < sweepLimit || !end) cursors.delete(key);
    else cursors.set(key, { at: end.at, id: end.ticketId });
  }
  return { candidates, examined };
}

/** Acts on one candidate in its own transaction when every condition holds and the rule has not acted since its last change. */
async function actOn(
  deps: Deps,
  options: AutomationsOptions,
  rule: Loaded,
  times: TicketTimes,
  now: Date,
  workspaceId: string,
) {
  return await transact(deps.db, async (tx) => {
    const s = automationStatements(tx);
    if (await s.isMarked(rule.id, times.ticketId)) return false;
    const ctx = systemContext(workspaceId);
    const ticket = await liveTicket(tx, ctx, times.ticketId);
    if (!ticket || ticket.spam) return false;
    const matched = timeConditionsHold(rule.conditions, ticket, times, now);
    if (!matched) return false;
    const facts = factsOf(tx, ticket, null);
    if (
      !(await everyHolds(rule.conditions, async (c) => isTimeCondition(c) || (await conditionHolds(tx, ctx, c, facts))))
    )
      return false;
    // Depth 1, as a reaction: event rules may react to what it changes, and their events carry this rule in their chain.
    const notes = await withEventCause(
      tx,
      { consumer: causeOf([rule.id]), depth: 1 },
      async () => await runActions(tx, deps, rule, ticket, options.aiTriage),
    );
    const at = now.toISOString();
    const runId = newId();
    await s.recordTimeRun({
      id: runId,
      workspaceId,
      automationId: rule.id,
      eventId: `${TIME_RUN_PREFIX}${runId}`,
      ticketId: ticket.id,
      notesJson: JSON.stringify(notes),
      matchedJson: JSON.stringify(matched),
      at,
    });
    return true;
  });
}

export type PassFigures = { workspaces: number; rules: number; examined: number; applied: number };

/**
 * One pass of the time rules: per workspace with enabled time rules, each rule's conditions become
 * index reads of the tickets' times (`planOf`), at most TIME_RULE_BUDGET rows per workspace; the
 * candidates the rule has not acted on since they last changed are checked in full and acted on.
 */
export async function timeRulesPass(
  deps: Deps,
  options: AutomationsOptions = {},
  cursors: SweepCursors = new Map(),
): Promise<PassFigures> {
  const figures: PassFigures = { workspaces: 0, rules: 0, examined: 0, applied: 0 };
  const now = deps.clock.now();
  const workspaces = await automationStatements(deps.db).timeRuleWorkspaces(
    cursors.get("workspace")?.id ?? "",
    WORKSPACES_PER_PASS,
  );
  if (workspaces.length < WORKSPACES_PER_PASS) cursors.delete("workspace");
  else cursors.set("workspace", { at: "", id: workspaces.at(-1)! });
  for (const workspaceId of workspaces) {
    figures.workspaces++;
    let budget = TIME_RULE_BUDGET;
    for (const raw of await automationStatements(deps.db).timeRules(workspaceId)) {
      if (budget <= 0) break;
      const rule = loadedOf(raw);
      const plan = planOf(rule.conditions, now);
      if (!plan) continue;
      figures.rules++;
      const { candidates, examined } = await candidatesOf(deps.db, workspaceId, rule, plan, cursors, budget);
      budget -= examined;
      figures.examined += examined;
      if (candidates.size === 0) continue;
      const marked = new Set(await automationStatements(deps.db).markedAmong(rule.id, [...candidates.keys()]));
      for (const candidate of candidates.values()) {
        if (marked.has(candidate.ticketId)) continue;
        try {
          if (await actOn(deps, options, rule, candidate, now, workspaceId)) figures.applied++;
        } catch (error) {
          deps.logger.warn(
            { err: error, automation_id: rule.id, ticket_id: candidate.ticketId },
            "a time rule could not act on a ticket",
          );
        }
      }
    }
  }
  return figures;
}

/** Every minute (the contract asks at least every 5): one pass, its cursors kept between passes. */
export function timeRulesJob() {
  const cursors: SweepCursors = new Map();
  return defineJob({
    name: "automations.time-rules",
    schema: z.object({}),
    schedule: "* * * * *",
    concurrency: 1,
    async handler(_payload, { deps }: JobContext<Deps>) {
      await timeRulesPass(deps, deps.ports.get(automationAi), cursors);
    },
  });
}
