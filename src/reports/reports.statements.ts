import { sql, type SQL } from "drizzle-orm";
import type { RequestContext } from "../auth/context";
import type { Queryable } from "../db/database";
import { dialectStatements } from "../db/dialect";
import { sqliteDrizzleOf } from "../db/sqlite/prepared";
import { rowsOf } from "../db/store";
import { reportableTicketsSql, reportTicketsSql as T } from "../tickets/tickets.public";

/** A report's range as UTC instants (ISO strings), [from, to). */
export type ReportSpan = { from: string; to: string };

/** One local day of a report: its date and the UTC instants it spans, clipped to the range. */
export type ReportDay = { date: string; from: string; to: string };

/** The range's single figures; durations in minutes, null when no ticket had one. */
export type ReportTotals = {
  created: number;
  solved: number;
  open_now: number;
  first_response: number | null;
  resolution: number | null;
  csat_avg: number | null;
  csat_count: number;
  sla_breached: number;
};

/**
 * The report aggregates over the tickets a caller may count (`reportableTicketsSql`), every method
 * one statement. The PostgreSQL twin computes durations with `extract(epoch from a - b) / 60` on
 * timestamptz instead of `julianday`, the same lower medians (`greatest` for the scalar `max`, its
 * subqueries named), JSON members with `->` / `->>` instead of `json_extract`, counts cast to int,
 * and compares the days' VALUES as text, as SQLite does.
 */
export type ReportStatements = {
  /** Created, solved and open tickets, median first response and resolution, CSAT and SLA breaches of the span. */
  totals(ctx: RequestContext, span: ReportSpan): Promise<ReportTotals>;
  /** Tickets created and solved in each of `days`, ordered by date. */
  byDay(
    ctx: RequestContext,
    days: readonly ReportDay[],
  ): Promise<Array<{ date: string; created: number; solved: number }>>;
  /** Tickets created in the span per channel (channels with none are absent). */
  createdByChannel(ctx: RequestContext, span: ReportSpan): Promise<Array<{ channel: string; count: number }>>;
  /** Tickets created in the span per severity, `none` for those without (severities with none are absent). */
  createdBySeverity(ctx: RequestContext, span: ReportSpan): Promise<Array<{ severity: string; count: number }>>;
  /** Per assignee: tickets solved in the span and the lower median first response (minutes) of those created in it. */
  byAgent(
    ctx: RequestContext,
    span: ReportSpan,
  ): Promise<Array<{ user_id: string; solved: number; first_response: number | null }>>;
};

/** The lower median of `value` over `rows` (a SQL fragment yielding one column `v`), in SQL. */
const median = (rows: SQL) =>
  sql`(SELECT v FROM (${rows}) ORDER BY v LIMIT 1 OFFSET (SELECT max(count(*) - 1, 0) / 2 FROM (${rows})))`;

/** Minutes from `b` to `a` (ISO text), from SQLite's day numbers. */
const minutes = (a: SQL, b: SQL) => sql`(julianday(${a}) - julianday(${b})) * 1440.0`;

/**
 * The caller's reportable tickets and those created or solved in the span, as conditions. Each
 * method reads it so the interface takes plain values: one prepared read of hidden teams, made
 * only for a caller who does not see every team.
 */
async function scopeOf(db: Queryable, ctx: RequestContext, span: ReportSpan) {
  const visible = await reportableTicketsSql(db, ctx);
  return {
    visible,
    createdIn: sql`${visible} AND ${T.createdAt} >= ${span.from} AND ${T.createdAt} < ${span.to}`,
    solvedIn: sql`${visible} AND ${T.solvedAt} >= ${span.from} AND ${T.solvedAt} < ${span.to}`,
  };
}

const sqliteReports = (db: Queryable): ReportStatements => {
  const sqlite = sqliteDrizzleOf(db);
  return {
    async totals(ctx, span) {
      const { visible, createdIn, solvedIn } = await scopeOf(db, ctx, span);
      const firstResponses = sql`SELECT ${minutes(T.firstRespondedAt, T.createdAt)} AS v FROM ${T.table} WHERE ${createdIn} AND ${T.firstRespondedAt} IS NOT NULL`;
      const resolutions = sql`SELECT ${minutes(T.solvedAt, T.createdAt)} AS v FROM ${T.table} WHERE ${solvedIn}`;
      return sqlite.all<ReportTotals>(sql`SELECT
      (SELECT count(*) FROM ${T.table} WHERE ${createdIn}) AS created,
      (SELECT count(*) FROM ${T.table} WHERE ${solvedIn}) AS solved,
      (SELECT count(*) FROM ${T.table} WHERE ${visible} AND ${T.status} IN ('open', 'pending', 'on_hold')) AS open_now,
      ${median(firstResponses)} AS first_response,
      ${median(resolutions)} AS resolution,
      (SELECT avg(json_extract(${T.csat}, '$.score')) FROM ${T.table} WHERE ${solvedIn} AND ${T.csat} IS NOT NULL) AS csat_avg,
      (SELECT count(*) FROM ${T.table} WHERE ${solvedIn} AND ${T.csat} IS NOT NULL) AS csat_count,
      (SELECT count(*) FROM ${T.table} WHERE ${createdIn} AND json_extract(${T.sla}, '$.breached') = 1) AS sla_breached`)[0]!;
    },

    async byDay(ctx, days) {
      const visible = await reportableTicketsSql(db, ctx);
      const dayRows = sql.join(
        days.map((d) => sql`(${d.date}, ${d.from}, ${d.to})`),
        sql`, `,
      );
      return sqlite.all<{ date: string; created: number; solved: number }>(sql`
    WITH days(date, lo, hi) AS (VALUES ${dayRows})
    SELECT days.date AS date,
      (SELECT count(*) FROM ${T.table} WHERE ${visible} AND ${T.createdAt} >= days.lo AND ${T.createdAt} < days.hi) AS created,
      (SELECT count(*) FROM ${T.table} WHERE ${visible} AND ${T.solvedAt} >= days.lo AND ${T.solvedAt} < days.hi) AS solved
    FROM days ORDER BY days.date`);
    },

    async createdByChannel(ctx, span) {
      const { createdIn } = await scopeOf(db, ctx, span);
      return sqlite
        .all<{ k: string; n: number }>(
          sql`SELECT ${T.channel} AS k, count(*) AS n FROM ${T.table} WHERE ${createdIn} GROUP BY ${T.channel}`,
        )
        .map((row) => ({ channel: row.k, count: row.n }));
    },

    async createdBySeverity(ctx, span) {
      const { createdIn } = await scopeOf(db, ctx, span);
      return sqlite
        .all<{ k: string; n: number }>(
          sql`SELECT coalesce(${T.severity}, 'none') AS k, count(*) AS n FROM ${T.table} WHERE ${createdIn} GROUP BY 1`,
        )
        .map((row) => ({ severity: row.k, count: row.n }));
    },

    async byAgent(ctx, span) {
      const { createdIn, solvedIn } = await scopeOf(db, ctx, span);
      return sqlite.all<{ user_id: string; solved: number; first_response: number | null }>(sql`
    WITH solved AS (SELECT ${T.assigneeId} AS u, count(*) AS n FROM ${T.table} WHERE ${solvedIn} AND ${T.assigneeId} IS NOT NULL GROUP BY ${T.assigneeId}),
    fr AS (
      SELECT ${T.assigneeId} AS u, ${minutes(T.firstRespondedAt, T.createdAt)} AS v,
        row_number() OVER (PARTITION BY ${T.assigneeId} ORDER BY ${minutes(T.firstRespondedAt, T.createdAt)}) AS rn,
        count(*) OVER (PARTITION BY ${T.assigneeId}) AS cnt
      FROM ${T.table} WHERE ${createdIn} AND ${T.firstRespondedAt} IS NOT NULL AND ${T.assigneeId} IS NOT NULL
    ),
    fr_median AS (SELECT u, v FROM fr WHERE rn = (cnt + 1) / 2),
    everyone AS (SELECT u FROM solved UNION SELECT u FROM fr_median)
    SELECT everyone.u AS user_id, coalesce(solved.n, 0) AS solved, fr_median.v AS first_response
    FROM everyone LEFT JOIN solved ON solved.u = everyone.u LEFT JOIN fr_median ON fr_median.u = everyone.u
    ORDER BY solved DESC, user_id`);
    },
  };
};

/** PostgreSQL's lower median of `rows` (its subqueries named, as PostgreSQL 15 wants; the offset from `greatest`). */
const pgMedian = (rows: SQL) =>
  sql`(SELECT r.v FROM (${rows}) AS r ORDER BY r.v LIMIT 1 OFFSET (SELECT greatest(count(*) - 1, 0) / 2 FROM (${rows}) AS c))`;

/** Minutes from `b` to `a` (ISO text), as a double: the seconds between the two instants over 60. */
const pgMinutes = (a: SQL, b: SQL) => sql`(extract(epoch from (${a})::timestamptz - (${b})::timestamptz) / 60)::float8`;

/**
 * PostgreSQL: the same statements through `rowsOf`, counts cast to int (they are bigint), durations
 * from timestamptz differences, JSON members with `->` / `->>` on the jsonb columns.
 */
const postgresReports = (db: Queryable): ReportStatements => ({
  async totals(ctx, span) {
    const { visible, createdIn, solvedIn } = await scopeOf(db, ctx, span);
    const firstResponses = sql`SELECT ${pgMinutes(T.firstRespondedAt, T.createdAt)} AS v FROM ${T.table} WHERE ${createdIn} AND ${T.firstRespondedAt} IS NOT NULL`;
    const resolutions = sql`SELECT ${pgMinutes(T.solvedAt, T.createdAt)} AS v FROM ${T.table} WHERE ${solvedIn}`;
    const rows = await rowsOf<ReportTotals>(
      db,
      sql`SELECT
      (SELECT count(*)::int FROM ${T.table} WHERE ${createdIn}) AS created,
      (SELECT count(*)::int FROM ${T.table} WHERE ${solvedIn}) AS solved,
      (SELECT count(*)::int FROM ${T.table} WHERE ${visible} AND ${T.status} IN ('open', 'pending', 'on_hold')) AS open_now,
      ${pgMedian(firstResponses)} AS first_response,
      ${pgMedian(resolutions)} AS resolution,
      (SELECT avg((${T.csat} ->> 'score')::float8) FROM ${T.table} WHERE ${solvedIn} AND ${T.csat} IS NOT NULL) AS csat_avg,
      (SELECT count(*)::int FROM ${T.table} WHERE ${solvedIn} AND ${T.csat} IS NOT NULL) AS csat_count,
      (SELECT count(*)::int FROM ${T.table} WHERE ${createdIn} AND (${T.sla} -> 'breached') = 'true'::jsonb) AS sla_breached`,
    );
    return rows[0]!;
  },

  async byDay(ctx, days) {
    const visible = await reportableTicketsSql(db, ctx);
    const dayRows = sql.join(
      days.map((d) => sql`(${d.date}::text, ${d.from}::text, ${d.to}::text)`),
      sql`, `,
    );
    return await rowsOf<{ date: string; created: number; solved: number }>(
      db,
      sql`
    WITH days(day, lo, hi) AS (VALUES ${dayRows})
    SELECT days.day AS "date",
      (SELECT count(*)::int FROM ${T.table} WHERE ${visible} AND ${T.createdAt} >= days.lo AND ${T.createdAt} < days.hi) AS created,
      (SELECT count(*)::int FROM ${T.table} WHERE ${visible} AND ${T.solvedAt} >= days.lo AND ${T.solvedAt} < days.hi) AS solved
    FROM days ORDER BY days.day`,
    );
  },

  async createdByChannel(ctx, span) {
    const { createdIn } = await scopeOf(db, ctx, span);
    return (
      await rowsOf<{ k: string; n: number }>(
        db,
        sql`SELECT ${T.channel} AS k, count(*)::int AS n FROM ${T.table} WHERE ${createdIn} GROUP BY ${T.channel}`,
      )
    ).map((row) => ({ channel: row.k, count: row.n }));
  },

  async createdBySeverity(ctx, span) {
    const { createdIn } = await scopeOf(db, ctx, span);
    return (
      await rowsOf<{ k: string; n: number }>(
        db,
        sql`SELECT coalesce(${T.severity}, 'none') AS k, count(*)::int AS n FROM ${T.table} WHERE ${createdIn} GROUP BY 1`,
      )
    ).map((row) => ({ severity: row.k, count: row.n }));
  },

  async byAgent(ctx, span) {
    const { createdIn, solvedIn } = await scopeOf(db, ctx, span);
    return await rowsOf<{ user_id: string; solved: number; first_response: number | null }>(
      db,
      sql`
    WITH solved AS (SELECT ${T.assigneeId} AS u, count(*)::int AS n FROM ${T.table} WHERE ${solvedIn} AND ${T.assigneeId} IS NOT NULL GROUP BY ${T.assigneeId}),
    fr AS (
      SELECT ${T.assigneeId} AS u, ${pgMinutes(T.firstRespondedAt, T.createdAt)} AS v,
        row_number() OVER (PARTITION BY ${T.assigneeId} ORDER BY ${pgMinutes(T.firstRespondedAt, T.createdAt)}) AS rn,
        count(*) OVER (PARTITION BY ${T.assigneeId}) AS cnt
      FROM ${T.table} WHERE ${createdIn} AND ${T.firstRespondedAt} IS NOT NULL AND ${T.assigneeId} IS NOT NULL
    ),
    fr_median AS (SELECT u, v FROM fr WHERE rn = (cnt + 1) / 2),
    everyone AS (SELECT u FROM solved UNION SELECT u FROM fr_median)
    SELECT everyone.u AS user_id, coalesce(solved.n, 0) AS solved, fr_median.v AS first_response
    FROM everyone LEFT JOIN solved ON solved.u = everyone.u LEFT JOIN fr_median ON fr_median.u = everyone.u
    ORDER BY 2 DESC, 1`,
    );
  },
});

/** The report aggregates of `db`'s engine, built once per connection. */
export const reportStatements = dialectStatements<ReportStatements>({
  sqlite: sqliteReports,
  postgres: postgresReports,
});
