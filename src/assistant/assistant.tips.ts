import type { RequestContext } from "../auth/context";
import type { Queryable } from "../db/database";
import type { Deps } from "../deps";
import { definePort } from "../lib/ports";
import { countTickets } from "../tickets/tickets.public";

/**
 * SLA clocks as the SLA feature stores them (`sla_clocks`: `next_due_at`, `breached`), for the tips.
 * The SLA feature, above the assistant, provides a read of its table through the `slaClocks` port.
 */
export type SlaClock = { ticketId: string; nextDueAt: string | null; breached: boolean };
export type SlaClockReader = (db: Queryable, workspaceId: string) => SlaClock[] | Promise<SlaClock[]>;

export const slaClocks = definePort<SlaClockReader>("assistant.slaClocks");

export type Tip = {
  key: "sla_breached" | "sla_due_soon" | "sla_at_risk" | "unassigned_old" | "mine_waiting";
  text: string;
  prompt: string;
  severity: "critical" | "warning" | "info";
  count: number;
};

const OPEN = ["open", "pending", "on_hold"];
const HOUR = 3_600_000;

/** SPEC.md's tips, from counts only (no model call): those with a count of zero are left out. */
export async function tipsFor(
  deps: Deps,
  ctx: RequestContext,
  userId: string,
  sla: SlaClockReader | null,
): Promise<Tip[]> {
  const now = deps.clock.now().getTime();
  const at = (ms: number) => new Date(now + ms).toISOString();
  const tips: Tip[] = [];
  const push = (tip: Tip) => {
    if (tip.count > 0) tips.push(tip);
  };
  if (sla) {
    const clocks = await sla(deps.db, ctx.workspaceId);
    const breached = clocks.filter((c) => c.breached).map((c) => c.ticketId);
    const dueWithin = (ms: number) =>
      clocks.filter((c) => !c.breached && c.nextDueAt && c.nextDueAt <= at(ms)).map((c) => c.ticketId);
    const n = await countTickets(deps.db, ctx, { statuses: OPEN, ids: breached });
    push({
      key: "sla_breached",
      count: n,
      severity: "critical",
      text: `${n} open ticket${n === 1 ? " has" : "s have"} missed an SLA deadline.`,
      prompt: "Which open tickets have breached their SLA, and who has them?",
    });
    const soon = await countTickets(deps.db, ctx, { statuses: OPEN, ids: dueWithin(HOUR) });
    push({
      key: "sla_due_soon",
      count: soon,
      severity: "warning",
      text: `${soon} ticket${soon === 1 ? " is" : "s are"} due within the hour.`,
      prompt: "Which tickets are due within the next hour?",
    });
    const risk = await countTickets(deps.db, ctx, { statuses: OPEN, ids: dueWithin(4 * HOUR), minSlaRisk: 0.6 });
    push({
      key: "sla_at_risk",
      count: risk,
      severity: "warning",
      text: `${risk} ticket${risk === 1 ? " is" : "s are"} likely to miss its deadline in the next 4 hours.`,
      prompt: "Which tickets are at risk of missing their SLA, and what would help?",
    });
  }
  const unassigned = await countTickets(deps.db, ctx, {
    statuses: ["open"],
    assignee: null,
    createdBefore: at(-24 * HOUR),
  });
  push({
    key: "unassigned_old",
    count: unassigned,
    severity: "warning",
    text: `${unassigned} open ticket${unassigned === 1 ? " has" : "s have"} been unassigned for over a day.`,
    prompt: "Which open tickets have been unassigned for more than a day?",
  });
  const mine = await countTickets(deps.db, ctx, { statuses: ["open"], assignee: userId, customerWaiting: true });
  push({
    key: "mine_waiting",
    count: mine,
    severity: "info",
    text: `${mine} of your tickets ${mine === 1 ? "is" : "are"} waiting on your reply.`,
    prompt: "Which of my tickets are waiting on my reply, oldest first?",
  });
  return tips;
}
