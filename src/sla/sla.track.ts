import { eq } from "drizzle-orm";
import type { Db, Queryable, Tx } from "../db/database";
import { transact } from "../db/tx";
import type { Clock } from "../lib/clock";
import { adminIdsOfWorkspace } from "../members/members.public";
import { notify } from "../notifications/notifications.public";
import {
  liveSlaTicket,
  patchTicketFields,
  type SlaTicketInput,
  type TicketRow,
  type TicketSla,
} from "../tickets/tickets.public";
import { addWorkingMinutes } from "./business-hours.calc";
import { businessHoursOf, type BusinessHoursJson } from "./business-hours.read";
import { slaStatements } from "./sla.statements";
import { slaClocks, type SlaClockRow, type SlaPolicyRow } from "./sla.table";

/**
 * The SLA clock of a ticket. The policy is the first enabled one by position whose priority is the
 * ticket's (or any). The first-response deadline counts from the ticket's creation; the resolution
 * deadline from its creation or latest reopening. Both run in every unsolved status (pending and
 * on hold included); a reply by an agent meets the first, solving meets both. `breached` stays true
 * once any deadline of the ticket was missed, whatever later changes: it is the ticket's record.
 */

const SOLVED = new Set(["solved", "closed"]);
const MINUTE = 60_000;

/**
 * Stores a ticket's SLA state in the caller's transaction, with `ticket.updated { changes: ["sla"] }`;
 * a breach also records an `sla_breached { kind }` activity by the system. Nothing is written when
 * the state is unchanged and no breach is recorded. Returns the ticket as stored, or undefined when
 * it is not live.
 */
async function setTicketSla(
  tx: Tx,
  input: { workspaceId: string; ticketId: string; sla: TicketSla | null; breach?: { kind: string } },
  now: string,
): Promise<TicketRow | undefined> {
  const breach = input.breach && { type: "sla_breached", data: { kind: input.breach.kind }, actor: "system" as const };
  return await patchTicketFields(tx, input.workspaceId, input.ticketId, { sla: input.sla }, now, breach);
}

export const BREACH_KINDS = ["first_response", "resolution"] as const;
export type BreachKind = (typeof BREACH_KINDS)[number];

/** The workspace's policies by position (read on every ticket change the tracker sees: prepared once). */
export const policiesOf = (db: Queryable, workspaceId: string): Promise<SlaPolicyRow[]> =>
  slaStatements(db).policies(workspaceId);

export const policyFor = (policies: SlaPolicyRow[], priority: string): SlaPolicyRow | undefined =>
  policies.find((p) => p.enabled && (p.priority === null || p.priority === priority));

/** `minutes` after `from`: open minutes when the policy counts business hours and they are on, else calendar minutes. */
async function deadline(
  from: string,
  minutes: number,
  policy: SlaPolicyRow,
  hours: () => BusinessHoursJson | Promise<BusinessHoursJson>,
): Promise<string | null> {
  if (policy.businessHours) {
    const open = await hours();
    if (open.enabled) return addWorkingMinutes(new Date(from), minutes, open)?.toISOString() ?? null;
  }
  return new Date(Date.parse(from) + minutes * MINUTE).toISOString();
}

const earliest = (values: Array<string | null>): string | null =>
  values.filter((v): v is string => v !== null).sort()[0] ?? null;

function pendingDue(
  clock: Pick<SlaClockRow, "firstDueAt" | "resolutionDueAt" | "firstBreached" | "resolutionBreached">,
  ticket: Pick<SlaTicketInput, "status" | "firstRespondedAt">,
): string | null {
  const solved = SOLVED.has(ticket.status);
  return earliest([
    !solved && !ticket.firstRespondedAt && !clock.firstBreached ? clock.firstDueAt : null,
    !solved && !clock.resolutionBreached ? clock.resolutionDueAt : null,
  ]);
}

const clockOf = (db: Queryable, ticketId: string): Promise<SlaClockRow | undefined> =>
  slaStatements(db).clock(ticketId);

const saveClock = (tx: Tx, row: SlaClockRow): Promise<void> => slaStatements(tx).saveClock(row);

const slaOf = (clock: SlaClockRow): TicketSla | null =>
  clock.policyId === null && !clock.breached
    ? null
    : {
        policy_id: clock.policyId,
        first_response_due_at: clock.firstDueAt,
        resolution_due_at: clock.resolutionDueAt,
        breached: clock.breached,
      };

/**
 * Computes a ticket's SLA clock from its current state and stores it (the clock row and Ticket.sla
 * through the ticket API), in the caller's transaction. `at` is when the change happened: a
 * reopening starts the resolution clock then.
 */
export async function trackTicket(tx: Tx, ticket: SlaTicketInput, at: string, given?: SlaPolicyRow[]): Promise<void> {
  const policies = given ?? (await policiesOf(tx, ticket.workspaceId));
  const before = await clockOf(tx, ticket.id);
  const policy = policyFor(policies, ticket.priority);
  if (!policy && !before) {
    if (ticket.sla !== null)
      await setTicketSla(tx, { workspaceId: ticket.workspaceId, ticketId: ticket.id, sla: null }, at);
    return;
  }
  const solved = SOLVED.has(ticket.status);
  const reopened = before?.solved === true && !solved;
  const startedAt = reopened ? at : (before?.startedAt ?? ticket.createdAt);
  let hours: BusinessHoursJson | undefined;
  const hoursOf = async () => {
    hours ??= await businessHoursOf(tx, ticket.workspaceId);
    return hours;
  };
  const clock: SlaClockRow = {
    ticketId: ticket.id,
    workspaceId: ticket.workspaceId,
    policyId: policy?.id ?? null,
    startedAt,
    solved,
    firstDueAt: policy ? await deadline(ticket.createdAt, policy.firstResponseMinutes, policy, hoursOf) : null,
    resolutionDueAt: policy ? await deadline(startedAt, policy.resolutionMinutes, policy, hoursOf) : null,
    firstBreached: before?.firstBreached ?? false,
    resolutionBreached: reopened ? false : (before?.resolutionBreached ?? false),
    breached: before?.breached ?? false,
    nextDueAt: null,
    updatedAt: at,
  };
  clock.nextDueAt = pendingDue(clock, ticket);
  const sla = slaOf(clock);
  if (sla === null) await tx.delete(slaClocks).where(eq(slaClocks.ticketId, ticket.id));
  else await saveClock(tx, clock);
  await setTicketSla(tx, { workspaceId: ticket.workspaceId, ticketId: ticket.id, sla }, at);
}

/** Forgets the clock of a ticket that is gone (deleted or merged away). */
export async function forgetTicket(tx: Tx, ticketId: string): Promise<void> {
  await tx.delete(slaClocks).where(eq(slaClocks.ticketId, ticketId));
}

/**
 * Records the deadlines of one ticket that have passed by `now` and were neither met nor recorded
 * before: each once, as an `sla_breached { kind }` activity with `ticket.updated`, and a
 * notification to the assignee (or to every owner and admin when nobody is assigned).
 */
async function breachTicket(
  tx: Tx,
  ticketId: string,
  now: string,
  clock: Clock,
  admins: Map<string, string[]> = new Map(),
): Promise<BreachKind[]> {
  const row = await clockOf(tx, ticketId);
  if (!row || row.nextDueAt === null || row.nextDueAt > now) return [];
  const ticket = await liveSlaTicket(tx, row.workspaceId, ticketId);
  if (!ticket) {
    await forgetTicket(tx, ticketId);
    return [];
  }
  const solved = SOLVED.has(ticket.status);
  const kinds: BreachKind[] = [];
  const next: SlaClockRow = { ...row, updatedAt: now };
  if (!row.firstBreached && !solved && !ticket.firstRespondedAt && row.firstDueAt !== null && row.firstDueAt <= now) {
    kinds.push("first_response");
    next.firstBreached = true;
  }
  if (!row.resolutionBreached && !solved && row.resolutionDueAt !== null && row.resolutionDueAt <= now) {
    kinds.push("resolution");
    next.resolutionBreached = true;
  }
  if (kinds.length) next.breached = true;
  next.nextDueAt = pendingDue(next, ticket);
  await saveClock(tx, next);
  const sla = slaOf(next);
  for (const kind of kinds) {
    const stored = await setTicketSla(tx, { workspaceId: row.workspaceId, ticketId, sla, breach: { kind } }, now);
    if (!stored) continue;
    const due = kind === "first_response" ? next.firstDueAt : next.resolutionDueAt;
    let recipients = stored.assigneeId ? [stored.assigneeId] : admins.get(row.workspaceId);
    if (!recipients) {
      recipients = await adminIdsOfWorkspace(tx, row.workspaceId);
      admins.set(row.workspaceId, recipients);
    }
    for (const userId of recipients)
      await notify(
        tx,
        {
          workspaceId: row.workspaceId,
          userId,
          type: "sla_breached",
          ticket: { id: stored.id, number: stored.number, subject: stored.subject },
          data: { kind, due_at: due },
        },
        clock,
      );
  }
  return kinds;
}

/** Clocks whose next deadline has passed, oldest first, through the partial index on next_due_at. */
const dueClocks = async (db: Queryable, now: string, limit: number): Promise<Array<{ ticketId: string }>> =>
  await slaStatements(db).dueClocks(now, limit);

/** One pass of the breach job: every deadline passed by now, in batches of `batch`. Returns the breaches recorded. */
export async function breachPass(deps: { db: Db; clock: Clock }, batch = 200): Promise<number> {
  const now = deps.clock.now().toISOString();
  let recorded = 0;
  const admins = new Map<string, string[]>();
  for (let round = 0; round < 50; round++) {
    const due = await dueClocks(deps.db, now, batch);
    for (const { ticketId } of due)
      recorded += (await transact(deps.db, async (tx) => await breachTicket(tx, ticketId, now, deps.clock, admins)))
        .length;
    if (due.length < batch) break;
  }
  return recorded;
}
