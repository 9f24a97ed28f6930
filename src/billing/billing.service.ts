import type { RequestContext } from "../auth/context";
import { microsToUsd, spentSince, usageBetween } from "../ai/ai.public";
import type { Deps } from "../deps";
import { DeskError, invalidAt } from "../lib/errors";
import { mailboxCountOf } from "../mailboxes/mailboxes.public";
import { memberCountsOf } from "../members/members.public";
import { userRefsOf } from "../tickets/tickets.public";

/**
 * Billing as a self-hosted instance answers it: no payment processor, no limits, unlimited AI.
 * The usage report is built from the AI meter's records (src/ai/ai.metering.ts), summed in integer
 * micro-USD so every breakdown adds up exactly to the total.
 */

export const billingDisabled = () =>
  new DeskError(404, "billing_disabled", "Billing is not enabled on this instance (self-hosted: nothing to pay).");

const monthStart = (at: Date) => new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), 1));
const nextMonthStart = (at: Date) => new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + 1, 1));

export async function selfHostedBilling(deps: Deps, ctx: RequestContext) {
  const now = deps.clock.now();
  const counts = await memberCountsOf(deps.db, ctx.workspaceId);
  return {
    plan: "self_hosted" as const,
    billing_enabled: false,
    status: "none" as const,
    interval: "month" as const,
    seats: counts.seats,
    billed_seats: counts.seats,
    current_period_end: null,
    cancel_at_period_end: false,
    limits: { max_mailboxes: 0, max_members: 0 },
    usage: { mailboxes: await mailboxCountOf(deps.db, ctx.workspaceId), members: counts.members },
    ai: {
      unlimited: true,
      monthly_usd: 0,
      used_usd: microsToUsd(await spentSince(deps.db, ctx.workspaceId, monthStart(now).toISOString())),
      purchased_usd: 0,
      remaining_usd: 0,
      period_end: nextMonthStart(now).toISOString(),
    },
    prices: { pro_month: null, pro_year: null, ai_top_up: null },
    auto_recharge: null,
  };
}

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
const RFC3339 = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?([Zz]|[+-]\d{2}:\d{2})$/;
const YEAR_MS = 366 * 86_400_000;

function parseBound(value: string, location: string, inclusiveDate: boolean): Date {
  if (DATE_ONLY.test(value)) {
    const day = new Date(`${value}T00:00:00Z`);
    if (Number.isNaN(day.getTime()) || day.toISOString().slice(0, 10) !== value)
      throw invalidAt(location, "Not a date (YYYY-MM-DD).");
    return inclusiveDate ? new Date(day.getTime() + 86_400_000) : day;
  }
  if (!RFC3339.test(value)) throw invalidAt(location, "Give an RFC 3339 time or a date (YYYY-MM-DD).");
  const at = new Date(value);
  if (Number.isNaN(at.getTime())) throw invalidAt(location, "Not a valid time.");
  return at;
}

/** The report's [from, to): defaults to this UTC month; a date-only `to` includes that day; at most a year. */
export function usageRange(query: { from?: string; to?: string }, now: Date): { from: Date; to: Date } {
  const from = query.from ? parseBound(query.from, "query.from", false) : monthStart(now);
  const to = query.to
    ? parseBound(query.to, "query.to", true)
    : query.from
      ? nextMonthStart(from)
      : nextMonthStart(now);
  if (to.getTime() <= from.getTime()) throw invalidAt("query.to", "`to` must be after `from`.");
  // One year: 366 days covers a leap year's date-only range (from Jan 1 to Dec 31 inclusive).
  if (to.getTime() - from.getTime() > YEAR_MS) throw invalidAt("query.to", "The range is at most one year.");
  return { from, to };
}

type Sum = { micros: number; calls: number };
const add = (sum: Sum | undefined, micros: number): Sum => ({
  micros: (sum?.micros ?? 0) + micros,
  calls: (sum?.calls ?? 0) + 1,
});

export async function usageReport(deps: Deps, ctx: RequestContext, query: { from?: string; to?: string }) {
  const { from, to } = usageRange(query, deps.clock.now());
  const rows = await usageBetween(deps.db, ctx.workspaceId, from.toISOString(), to.toISOString());
  let total = 0;
  let ownKeyCalls = 0;
  const byFeature = new Map<string, Sum>();
  const byDay = new Map<string, Sum & { features: Map<string, number> }>();
  const byMember = new Map<string | null, Sum>();
  const byModel = new Map<
    string,
    Sum & { model: string; source: "instance" | "own_key"; input: number; output: number }
  >();
  for (const row of rows) {
    total += row.usdMicros;
    if (row.source === "own_key") ownKeyCalls++;
    byFeature.set(row.feature, add(byFeature.get(row.feature), row.usdMicros));
    const date = row.createdAt.slice(0, 10);
    const day = byDay.get(date) ?? { micros: 0, calls: 0, features: new Map<string, number>() };
    day.micros += row.usdMicros;
    day.calls++;
    day.features.set(row.feature, (day.features.get(row.feature) ?? 0) + row.usdMicros);
    byDay.set(date, day);
    byMember.set(row.userId, add(byMember.get(row.userId), row.usdMicros));
    const modelKey = `${row.model}\n${row.source}`;
    const model = byModel.get(modelKey) ?? {
      micros: 0,
      calls: 0,
      model: row.model,
      source: row.source,
      input: 0,
      output: 0,
    };
    model.micros += row.usdMicros;
    model.calls++;
    model.input += row.inputTokens;
    model.output += row.outputTokens;
    byModel.set(modelKey, model);
  }
  const users = await userRefsOf(deps.db, [...byMember.keys()]);
  const bySpend = <T extends { micros: number; calls: number }>(a: T, b: T) => b.micros - a.micros || b.calls - a.calls;
  return {
    from: from.toISOString(),
    to: to.toISOString(),
    total_usd: microsToUsd(total),
    total_calls: rows.length,
    by_feature: [...byFeature.entries()]
      .sort(([, a], [, b]) => bySpend(a, b))
      .map(([feature, s]) => ({ feature, usd: microsToUsd(s.micros), calls: s.calls })),
    by_day: [...byDay.entries()]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([date, s]) => ({
        date,
        usd: microsToUsd(s.micros),
        calls: s.calls,
        by_feature: Object.fromEntries([...s.features].map(([f, m]) => [f, microsToUsd(m)])),
      })),
    by_member: [...byMember.entries()]
      .sort(([, a], [, b]) => bySpend(a, b))
      .map(([userId, s]) => ({
        user: userId ? (users.get(userId) ?? null) : null,
        usd: microsToUsd(s.micros),
        calls: s.calls,
      })),
    by_model: [...byModel.values()].sort(bySpend).map((m) => ({
      model: m.model,
      usd: microsToUsd(m.micros),
      calls: m.calls,
      input_tokens: m.input,
      output_tokens: m.output,
      source: m.source,
    })),
    own_key_calls: ownKeyCalls,
  };
}
