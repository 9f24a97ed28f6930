import type { RequestContext } from "../auth/context";
import type { Queryable } from "../db/database";
import { defineRead } from "../db/read-pool";
import { invalidAt } from "../lib/errors";
import { CHANNELS, SEVERITIES, userRefsOf } from "../tickets/tickets.public";
import type { UserRefJson } from "../identity/identity.public";
import { reportStatements } from "./reports.statements";

export type Overview = {
  from: string;
  to: string;
  created: number;
  solved: number;
  open_now: number;
  first_response_p50_minutes: number | null;
  resolution_p50_minutes: number | null;
  csat_avg: number | null;
  csat_count: number;
  sla_breached: number;
  by_day: Array<{ date: string; created: number; solved: number }>;
  by_channel: Record<string, number>;
  by_severity: Record<string, number>;
  by_agent: Array<{ user: UserRefJson; solved: number; first_response_p50_minutes: number | null }>;
};

const DAY_MS = 86_400_000;
const DATE_RE = /^\d{4}-\d{2}-\d{2}$/;

/** Milliseconds `timeZone` is ahead of UTC at the instant `at`. */
function zoneOffset(at: number, timeZone: string): number {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat("en-US", {
      timeZone,
      hourCycle: "h23",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
    })
      .formatToParts(new Date(at))
      .map((p) => [p.type, p.value]),
  );
  return (
    Date.UTC(+parts.year!, +parts.month! - 1, +parts.day!, +parts.hour!, +parts.minute!, +parts.second!) -
    Math.floor(at / 1000) * 1000
  );
}

/** The instant a local date (YYYY-MM-DD) begins in `timeZone` (its midnight, or the first moment after a DST gap). */
export function startOfLocalDay(date: string, timeZone: string): Date {
  const utcMidnight = Date.parse(`${date}T00:00:00Z`);
  let at = utcMidnight - zoneOffset(utcMidnight, timeZone);
  at = utcMidnight - zoneOffset(at, timeZone);
  return new Date(at);
}

/** The local date (YYYY-MM-DD) of an instant in `timeZone`. */
export const localDate = (at: Date, timeZone: string): string =>
  new Intl.DateTimeFormat("en-CA", { timeZone, year: "numeric", month: "2-digit", day: "2-digit" }).format(at);

const nextDate = (date: string): string =>
  new Date(Date.parse(`${date}T00:00:00Z`) + DAY_MS).toISOString().slice(0, 10);

/**
 * `from`/`to` as RFC 3339 or YYYY-MM-DD in the workspace's time zone (a date-only `to` includes
 * that day); default: the last 30 days up to the end of today; at most a year.
 */
export function reportRange(now: Date, from?: string, to?: string, timeZone = "UTC"): { from: Date; to: Date } {
  const parse = (value: string, location: string, endOfDay: boolean): Date => {
    if (DATE_RE.test(value)) {
      if (Number.isNaN(Date.parse(`${value}T00:00:00Z`)))
        throw invalidAt(location, "Use an RFC 3339 time or a YYYY-MM-DD date.");
      return startOfLocalDay(endOfDay ? nextDate(value) : value, timeZone);
    }
    const date = new Date(value);
    if (Number.isNaN(date.getTime())) throw invalidAt(location, "Use an RFC 3339 time or a YYYY-MM-DD date.");
    return date;
  };
  const today = localDate(now, timeZone);
  const end = to ? parse(to, "query.to", true) : startOfLocalDay(nextDate(today), timeZone);
  const thirtyDaysBack = new Date(Date.parse(`${today}T00:00:00Z`) - 29 * DAY_MS).toISOString().slice(0, 10);
  const start = from
    ? parse(from, "query.from", false)
    : to
      ? new Date(end.getTime() - 30 * DAY_MS)
      : startOfLocalDay(thirtyDaysBack, timeZone);
  if (start >= end) throw invalidAt("query.from", "from must be before to.");
  if (end.getTime() - start.getTime() > 366 * DAY_MS + 2 * 3_600_000)
    throw invalidAt("query.to", "The range may span at most one year.");
  return { from: start, to: end };
}

/** The local days a range touches, each with the UTC instants it spans (clipped to the range). */
function daysOf(range: { from: Date; to: Date }, timeZone: string): Array<{ date: string; from: string; to: string }> {
  const days: Array<{ date: string; from: string; to: string }> = [];
  for (let date = localDate(range.from, timeZone); days.length <= 370; date = nextDate(date)) {
    const start = startOfLocalDay(date, timeZone);
    if (start >= range.to) break;
    const end = startOfLocalDay(nextDate(date), timeZone);
    days.push({
      date,
      from: new Date(Math.max(start.getTime(), range.from.getTime())).toISOString(),
      to: new Date(Math.min(end.getTime(), range.to.getTime())).toISOString(),
    });
  }
  return days;
}

/** GET /v1/reports/overview: every figure is a SQL aggregate over the range [from, to). */
export async function overviewReport(
  db: Queryable,
  ctx: RequestContext,
  range: { from: Date; to: Date },
  timeZone = "UTC",
): Promise<Overview> {
  const from = range.from.toISOString();
  const to = range.to.toISOString();
  const span = { from, to };
  // Counted over the tickets the caller may see (private teams' only for their members), live and not spam.
  const reports = reportStatements(db);
  const totals = await reports.totals(ctx, span);
  // Days are the workspace's local days: each is counted over the UTC instants it spans.
  const byDay = await reports.byDay(ctx, daysOf(range, timeZone));

  const byChannel = Object.fromEntries(CHANNELS.map((c) => [c, 0])) as Record<string, number>;
  for (const row of await reports.createdByChannel(ctx, span)) byChannel[row.channel] = row.count;
  const bySeverity = Object.fromEntries([...SEVERITIES, "none"].map((s) => [s, 0])) as Record<string, number>;
  for (const row of await reports.createdBySeverity(ctx, span)) bySeverity[row.severity] = row.count;

  const agents = await reports.byAgent(ctx, span);
  const refs = await userRefsOf(
    db,
    agents.map((a) => a.user_id),
  );

  const round = (v: number | null) => (v === null || v === undefined ? null : Math.round(v * 10) / 10);
  return {
    from,
    to,
    created: totals.created,
    solved: totals.solved,
    open_now: totals.open_now,
    first_response_p50_minutes: round(totals.first_response),
    resolution_p50_minutes: round(totals.resolution),
    csat_avg: totals.csat_avg === null ? null : Math.round(totals.csat_avg * 100) / 100,
    csat_count: totals.csat_count,
    sla_breached: totals.sla_breached,
    by_day: byDay,
    by_channel: byChannel,
    by_severity: bySeverity,
    by_agent: agents
      .filter((a) => refs.has(a.user_id))
      .map((a) => ({
        user: refs.get(a.user_id)!,
        solved: a.solved,
        first_response_p50_minutes: round(a.first_response),
      })),
  };
}

/** The overview on a read pool worker: its aggregates scan every ticket of the range. */
export const overviewRead = defineRead(
  "reports.overview",
  async (db, p: { ctx: RequestContext; range: { from: Date; to: Date }; timeZone: string }) =>
    await overviewReport(db, p.ctx, p.range, p.timeZone),
);
