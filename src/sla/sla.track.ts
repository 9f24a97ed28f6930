import { eq } from "drizzle-orm";
import { preparedFor } from "../db/prepared";
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

type RawPolicy = Omit<SlaPolicyRow, "businessHours" | "enabled"> & { businessHours: number; enabled: number };

/** The workspace's policies by position (read on every ticket change the tracker sees: prepared once). */
export async function policiesOf(db: Queryable, workspaceId: string): Promise<SlaPolicyRow[]> {
  return policyStatements(db)
    .policies.all(workspaceId)
    .map((raw) => ({ ...raw, businessHours: raw.businessHours === 1, enabled: raw.enabled === 1 }));
}

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

type RawClock = Omit<SlaClockRow, "solved" | "firstBreached" | "resolutionBreached" | "breached"> & {
  solved: number;
  firstBreached: number;
  resolutionBreached: number;
  breached: number;
};
type ClockParams = [
  string,
  string,
  string | null,
  string,
  number,
  string | null,
  string | null,
  number,
  number,
  number,
  string | null,
  string,
];

const policyStatements = preparedFor((sqlite) => ({
  policies: sqlite.query<RawPolicy, [string]>(
    `SELECT id, workspace_id AS workspaceId, name, priority, first_response_minutes AS firstResponseMinutes,
       resolution_minutes AS resolutionMinutes, business_hours AS businessHours, enabled, position,
       created_at AS createdAt, updated_at AS updatedAt
     FROM sla_policies WHERE workspace_id = +? ORDER BY position, created_at, id`,
  ),
}));

/** The breach job's statements, prepared once per connection (drizzle builds SQL text on every call). */
const statements = preparedFor((sqlite) => ({
  clock: sqlite.query<RawClock, [string]>(
    `SELECT ticket_id AS ticketId, workspace_id AS workspaceId, policy_id AS policyId, started_at AS startedAt, solved,
       first_due_at AS firstDueAt, resolution_due_at AS resolutionDueAt, first_breached AS firstBreached,
       resolution_breached AS resolutionBreached, breached, next_due_at AS nextDueAt, updated_at AS updatedAt
     FROM sla_clocks WHERE ticket_id = +?`,
  ),
  save: sqlite.query<unknown, ClockParams>(
    `INSERT INTO sla_clocks (ticket_id, workspace_id, policy_id, started_at, solved, first_due_at, resolution_due_at,
       first_breached, resolution_breached, breached, next_due_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (ticket_id) DO UPDATE SET workspace_id = excluded.workspace_id, policy_id = excluded.policy_id,
       started_at = excluded.started_at, solved = excluded.solved, first_due_at = excluded.first_due_at,
       resolution_due_at = excluded.resolution_due_at, first_breached = excluded.first_breached,
       resolution_breached = excluded.resolution_breached, breached = excluded.breached, next_due_at = excluded.next_due_at,
       updated_at = excluded.updated_at`,
  ),
  due: sqlite.query<{ ticketId: string }, [string, number]>(
    "SELECT ticket_id AS ticketId FROM sla_clocks WHERE next_due_at IS NOT NULL AND next_due_at <= ? ORDER BY next_due_at LIMIT ?",
  ),
}));

async function clockOf(db: Queryable, ticketId: string): Promise<SlaClockRow | undefined> {
  const raw = statements(db).clock.get(ticketId);
  if (!raw) return undefined;
  return {
    ...raw,
    solved: raw.solved === 1,
    firstBreached: raw.firstBreached === 1,
    resolutionBreached: raw.resolutionBreached === 1,
    breached: raw.breached === 1,
  };
}

async function saveClock(tx: Tx, row: SlaClockRow): Promise<void> {
  statements(tx).save.run(
    row.ticketId,
    row.workspaceId,
    row.policyId,
    row.startedAt,
    row.solved ? 1 : 0,
    row.firstDueAt,
    row.resolutionDueAt,
    row.firstBreached ? 1 : 0,
    row.resolutionBreached ? 1 : 0,
    row.breached ? 1 : 0,
    row.nextDueAt,
    row.updatedAt,
  );
}

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
  statements(db).due.all(now, limit);

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
