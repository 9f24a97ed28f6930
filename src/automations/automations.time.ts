import type { FieldError } from "../lib/errors";
import {
  TICKET_STATUSES,
  type TicketRow,
  type TicketStatus,
  type TicketTimeColumn,
  type TicketTimes,
} from "../tickets/tickets.public";
import type { AutomationCondition, MatchedCondition } from "./automations.schemas";

/** A time run's event_id starts with this (no event caused it; the run log shows trigger time). */
export const TIME_RUN_PREFIX = "time:";

/** The conditions only time rules take, and the ticket time each hours_since_* compares. */
export const HOURS_FIELDS: Record<string, TicketTimeColumn> = {
  hours_since_created: "created",
  hours_since_status_changed: "status_changed",
  hours_since_customer_message: "customer_message",
  hours_since_agent_message: "agent_message",
};
export const isTimeCondition = (c: AutomationCondition): boolean => c.field === "sla" || c.field in HOURS_FIELDS;

/** Conditions a time rule may not take: the AI reads a message, and no message is at hand on a pass. */
const NOT_ON_TIME = new Set(["sentiment", "ai_decide"]);
/** 10 years: a larger number is a typo, and its cutoff would leave the dates SQLite compares. */
const MAX_HOURS = 87_600;
const MAX_MINUTES = 525_600;
const UNSOLVED: TicketStatus[] = ["open", "pending", "on_hold"];

const HOUR = 3_600_000;
const MINUTE = 60_000;

function numberOf(value: string | number): number | null {
  if (typeof value === "number") return value;
  const trimmed = value.trim();
  return trimmed === "" ? null : Number(trimmed);
}

/**
 * Checks the time conditions (and what a time rule may combine them with) for the trigger the rule
 * will have; answers the condition normalized (numbers as numbers), or null when it is not a time
 * condition and the ordinary checks apply. Problems are pushed located at `at`.
 */
export function checkTimeCondition(
  condition: AutomationCondition,
  trigger: string | undefined,
  at: string,
  errors: FieldError[],
): AutomationCondition | null {
  const fail = (where: string, message: string) => {
    errors.push({ location: `${at}.${where}`, message });
    return condition;
  };
  const time = isTimeCondition(condition);
  if (trigger === "time" && NOT_ON_TIME.has(condition.field))
    return fail("field", `a time rule takes no ${condition.field} condition (it reads no message)`);
  if (!time) return null;
  if (trigger !== "time") return fail("field", `${condition.field} is a condition of the time trigger only`);
  if (condition.field === "sla") {
    if (condition.op === "breached") return { field: "sla", op: "breached", value: "" };
    if (condition.op !== "due_within_minutes") return fail("op", "sla takes breached or due_within_minutes");
    const minutes = numberOf(condition.value);
    if (minutes === null || !Number.isFinite(minutes) || minutes <= 0 || minutes > MAX_MINUTES)
      return fail("value", `due_within_minutes takes a number of minutes above 0, at most ${MAX_MINUTES}`);
    return { field: "sla", op: "due_within_minutes", value: minutes };
  }
  if (condition.op !== "gt" && condition.op !== "lt") return fail("op", `${condition.field} takes gt or lt`);
  const hours = numberOf(condition.value);
  if (hours === null || !Number.isFinite(hours) || hours < 0 || hours > MAX_HOURS)
    return fail("value", `${condition.field} takes a number of hours from 0 to ${MAX_HOURS}`);
  return { field: condition.field, op: condition.op, value: hours };
}

/** A time rule needs a time condition: without one it would act on every ticket of the workspace. */
export function checkTimeRule(conditions: AutomationCondition[], errors: FieldError[]): void {
  if (!conditions.some(isTimeCondition))
    errors.push({
      location: "body.conditions",
      message: "a time rule needs at least one hours_since_* or sla condition",
    });
}

/** How a pass finds a rule's candidates: one index range (or the breached set) per status it can hold in. */
export type TimePlan = {
  statuses: TicketStatus[];
  driver: { kind: "range"; column: TicketTimeColumn; from: string; to: string } | { kind: "breached" };
};

/**
 * Translates a rule's conditions into the index reads of a pass: the statuses its status conditions
 * (and SLA conditions: unsolved tickets only) allow, and the narrowest time condition as a range of
 * its ticket time. Every condition is checked again on each candidate (`timeConditionsHold`).
 */
export function planOf(conditions: AutomationCondition[], now: Date): TimePlan | null {
  let statuses = new Set<TicketStatus>(TICKET_STATUSES);
  for (const c of conditions) {
    if (c.field === "status" && c.op === "equals") statuses = new Set([...statuses].filter((s) => s === c.value));
    if (c.field === "status" && c.op === "not_equals") statuses.delete(c.value as TicketStatus);
    if (c.field === "sla") statuses = new Set([...statuses].filter((s) => UNSOLVED.includes(s)));
  }
  const at = (ms: number) => new Date(now.getTime() + ms).toISOString();
  type Option = { rank: number; driver: TimePlan["driver"] };
  const options: Option[] = [];
  for (const c of conditions) {
    const column = HOURS_FIELDS[c.field];
    const n = Number(c.value);
    // lt reads the recent tickets (a short range); gt reads all older ones, so it comes last.
    if (column && c.op === "lt")
      options.push({ rank: 0, driver: { kind: "range", column, from: at(-n * HOUR), to: "9999" } });
    else if (c.field === "sla" && c.op === "due_within_minutes")
      options.push({ rank: 1, driver: { kind: "range", column: "sla_due", from: at(0), to: at(n * MINUTE + 1) } });
    else if (c.field === "sla" && c.op === "breached") options.push({ rank: 2, driver: { kind: "breached" } });
    else if (column && c.op === "gt")
      options.push({ rank: 3, driver: { kind: "range", column, from: "", to: at(-n * HOUR) } });
  }
  options.sort((a, b) => a.rank - b.rank);
  const best = options[0];
  return best && statuses.size > 0 ? { statuses: [...statuses], driver: best.driver } : null;
}

const round1 = (n: number) => Math.round(n * 10) / 10;

/**
 * Whether every time condition holds for the ticket now, with the values it compared (the run log's
 * why); null when one does not hold. SLA conditions hold on unsolved tickets only.
 */
export function timeConditionsHold(
  conditions: AutomationCondition[],
  ticket: TicketRow,
  times: TicketTimes,
  now: Date,
): MatchedCondition[] | null {
  const matched: MatchedCondition[] = [];
  const unsolved = UNSOLVED.includes(ticket.status);
  for (const c of conditions) {
    const column = HOURS_FIELDS[c.field];
    if (column) {
      const hours = (now.getTime() - Date.parse(times[column])) / HOUR;
      const threshold = Number(c.value);
      if (!(c.op === "gt" ? hours > threshold : hours < threshold)) return null;
      matched.push({ field: c.field, op: c.op, value: threshold, actual: round1(hours) });
    } else if (c.field === "sla" && c.op === "breached") {
      if (!unsolved || !ticket.sla?.breached) return null;
      matched.push({ field: c.field, op: c.op, value: "", actual: "breached" });
    } else if (c.field === "sla") {
      const due = ticket.dueAt ?? "9999";
      const minutes = (Date.parse(due) - now.getTime()) / MINUTE;
      if (!unsolved || due === "9999" || !(minutes > 0 && minutes <= Number(c.value))) return null;
      matched.push({ field: c.field, op: c.op, value: Number(c.value), actual: round1(minutes) });
    } else {
      const shown: Record<string, string> = {
        status: ticket.status,
        priority: ticket.priority,
        severity: ticket.severity ?? "none",
        channel: ticket.channel,
      };
      matched.push({ field: c.field, op: c.op, value: c.value, actual: shown[c.field] ?? null });
    }
  }
  return matched;
}
