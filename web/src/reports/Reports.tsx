import { useQuery } from "@tanstack/react-query";
import { lazy, Suspense, useState } from "react";
import { api } from "../lib/api/client";
import type { Overview } from "../lib/api/types";
import { Empty, ErrorBox, Loading } from "../lib/ui/states";
import { formatDateTime, formatNumber, t } from "../lib/i18n/i18n";
import { valueInText } from "../lib/ui/bits";

const reportsKeys = { overview: (from: string, to: string) => ["reports", "overview", from, to] as const };

// uPlot comes with the chart only: nothing of it loads before this page draws one.
const DayChart = lazy(() => import("./DayChart"));

const DAY = 86_400_000;
const isoDay = (d: Date) => d.toISOString().slice(0, 10);
const PRESETS = [7, 30, 90] as const;
/** A report day (YYYY-MM-DD, a UTC calendar day) as the reader's language writes a date. */
const dayText = (day: string) => formatDateTime(`${day}T00:00:00Z`, { dateStyle: "medium", timeZone: "UTC" });

/** Minutes as "45m", "3h 20m" or "2d 4h"; a dash when there is no figure. */
export function duration(minutes: number | null): string {
  if (minutes === null) return "—";
  const m = Math.round(minutes);
  const unit = (key: "common.unitMinutes" | "common.unitHours" | "common.unitDays", count: number) => t(key, { count });
  if (m < 60) return unit("common.unitMinutes", m);
  if (m < 24 * 60)
    return [unit("common.unitHours", Math.floor(m / 60)), ...(m % 60 ? [unit("common.unitMinutes", m % 60)] : [])].join(
      " ",
    );
  const h = Math.floor(m / 60);
  return [unit("common.unitDays", Math.floor(h / 24)), ...(h % 24 ? [unit("common.unitHours", h % 24)] : [])].join(" ");
}

const csvCell = (value: unknown) => {
  const text = value === null || value === undefined ? "" : String(value);
  // Quote what needs it, and neutralise a leading formula character for spreadsheet apps.
  const safe = /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
  return /[",\n\r]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
};

/** The report as CSV: the totals, then one section per breakdown (one file opens in any spreadsheet). */
export function overviewCsv(o: Overview): string {
  const rows: unknown[][] = [
    ["metric", "value"],
    ["from", o.from],
    ["to", o.to],
    ["created", o.created],
    ["solved", o.solved],
    ["open_now", o.open_now],
    ["first_response_p50_minutes", o.first_response_p50_minutes],
    ["resolution_p50_minutes", o.resolution_p50_minutes],
    ["csat_avg", o.csat_avg],
    ["csat_count", o.csat_count],
    ["sla_breached", o.sla_breached],
    [],
    ["date", "created", "solved"],
    ...o.by_day.map((d) => [d.date, d.created, d.solved]),
    [],
    ["channel", "tickets"],
    ...Object.entries(o.by_channel),
    [],
    ["severity", "tickets"],
    ...Object.entries(o.by_severity),
    [],
    ["agent", "email", "solved", "first_response_p50_minutes"],
    ...o.by_agent.map((a) => [a.user.name, a.user.email, a.solved, a.first_response_p50_minutes]),
  ];
  return `${rows.map((r) => r.map(csvCell).join(",")).join("\r\n")}\r\n`;
}

function download(name: string, text: string) {
  const url = URL.createObjectURL(new Blob([text], { type: "text/csv;charset=utf-8" }));
  const a = document.createElement("a");
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

function Bars({ id, title, data }: { id: string; title: string; data: Array<[string, number]> }) {
  const max = Math.max(1, ...data.map(([, n]) => n));
  return (
    <section className="report-card" aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      {data.length === 0 ? (
        <p className="muted small">{t("reports.noTickets")}</p>
      ) : (
        <table className="bars">
          <tbody>
            {data.map(([label, n]) => (
              <tr key={label}>
                <th scope="row">{label}</th>
                <td className="bar-cell">
                  <span className="bar" style={{ width: `${(n / max) * 100}%` }} />
                </td>
                <td className="num">{formatNumber(n)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

export default function Reports() {
  const [range, setRange] = useState(() => {
    const today = new Date();
    return { from: isoDay(new Date(today.getTime() - 29 * DAY)), to: isoDay(today) };
  });
  const valid = range.from !== "" && range.to !== "" && range.from <= range.to;
  const report = useQuery({
    queryKey: reportsKeys.overview(range.from, range.to),
    queryFn: () => api<Overview>(`/reports/overview?from=${range.from}&to=${range.to}`),
    enabled: valid,
  });
  const preset = (days: number) => {
    const today = new Date();
    setRange({ from: isoDay(new Date(today.getTime() - (days - 1) * DAY)), to: isoDay(today) });
  };
  const o = report.data;
  return (
    <section className="list-page reports">
      <div className="page-head">
        <h1>{t("reports.title")}</h1>
        <form className="report-range" onSubmit={(e) => e.preventDefault()} aria-label={t("reports.dateRange")}>
          <label htmlFor="report-from">{t("reports.from")}</label>
          <input
            id="report-from"
            type="date"
            value={range.from}
            max={range.to}
            onChange={(e) => setRange((r) => ({ ...r, from: e.target.value }))}
          />
          <label htmlFor="report-to">{t("reports.to")}</label>
          <input
            id="report-to"
            type="date"
            value={range.to}
            min={range.from}
            onChange={(e) => setRange((r) => ({ ...r, to: e.target.value }))}
          />
          {PRESETS.map((days) => (
            <button key={days} type="button" className="btn btn-ghost" onClick={() => preset(days)}>
              {t("reports.lastDays", { days })}
            </button>
          ))}
          <button
            type="button"
            className="btn"
            disabled={!o}
            onClick={() => o && download(`desk-report-${range.from}-to-${range.to}.csv`, overviewCsv(o))}
          >
            {t("common.exportCsv")}
          </button>
        </form>
      </div>
      <div className="report-body">
        {!valid ? (
          <p className="form-error" role="alert">
            {t("reports.badRange")}
          </p>
        ) : report.isPending ? (
          <Loading />
        ) : report.isError ? (
          <ErrorBox error={report.error} retry={() => report.refetch()} />
        ) : o ? (
          <>
            <dl className="kpis">
              {(
                [
                  [t("reports.created"), formatNumber(o.created)],
                  [t("reports.solved"), formatNumber(o.solved)],
                  [t("reports.openNow"), formatNumber(o.open_now)],
                  [t("reports.firstResponseMedian"), duration(o.first_response_p50_minutes)],
                  [t("reports.resolutionMedian"), duration(o.resolution_p50_minutes)],
                  [
                    t("reports.csat"),
                    o.csat_avg === null
                      ? "—"
                      : t("reports.csatValue", {
                          average: formatNumber(o.csat_avg, { minimumFractionDigits: 2, maximumFractionDigits: 2 }),
                          count: formatNumber(o.csat_count),
                        }),
                  ],
                  [t("reports.slaBreaches"), formatNumber(o.sla_breached)],
                ] as const
              ).map(([label, value]) => (
                <div key={label} className="kpi">
                  <dt>{label}</dt>
                  <dd>{value}</dd>
                </div>
              ))}
            </dl>
            <section className="report-card" aria-labelledby="by-day">
              <h2 id="by-day">{t("reports.byDay")}</h2>
              {o.by_day.length === 0 ? (
                <Empty title={t("reports.noDays")} />
              ) : (
                <>
                  <Suspense fallback={<Loading label={t("reports.loadingChart")} />}>
                    <DayChart
                      days={o.by_day}
                      label={t("reports.chartLabel", { from: dayText(range.from), to: dayText(range.to) })}
                      seriesLabels={[t("reports.created"), t("reports.solved")]}
                    />
                  </Suspense>
                  <details>
                    <summary>{t("reports.showFigures")}</summary>
                    <table className="table">
                      <thead>
                        <tr>
                          <th scope="col">{t("reports.date")}</th>
                          <th scope="col">{t("reports.created")}</th>
                          <th scope="col">{t("reports.solved")}</th>
                        </tr>
                      </thead>
                      <tbody>
                        {o.by_day.map((d) => (
                          <tr key={d.date}>
                            <td>{dayText(d.date)}</td>
                            <td>{formatNumber(d.created)}</td>
                            <td>{formatNumber(d.solved)}</td>
                          </tr>
                        ))}
                      </tbody>
                    </table>
                  </details>
                </>
              )}
            </section>
            <div className="report-grid">
              <Bars
                id="bars-by-channel"
                title={t("reports.byChannel")}
                data={Object.entries(o.by_channel).map(([k, n]) => [valueInText(k), n])}
              />
              <Bars
                id="bars-by-severity"
                title={t("reports.bySeverity")}
                // SEV1…SEV4 are the same codes in every language.
                data={Object.entries(o.by_severity).map(([k, n]) => [
                  k === "none" ? t("common.none") : k.toUpperCase(),
                  n,
                ])}
              />
            </div>
            <section className="report-card" aria-labelledby="by-agent">
              <h2 id="by-agent">{t("reports.byAgent")}</h2>
              {o.by_agent.length === 0 ? (
                <p className="muted small">{t("reports.noAgents")}</p>
              ) : (
                // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region keyboard users must reach to scroll
                <section className="table-scroll" tabIndex={0} aria-label={t("reports.agents")}>
                  <table className="table">
                    <thead>
                      <tr>
                        <th scope="col">{t("reports.agent")}</th>
                        <th scope="col">{t("reports.solved")}</th>
                        <th scope="col">{t("reports.firstResponseMedian")}</th>
                      </tr>
                    </thead>
                    <tbody>
                      {o.by_agent.map((a) => (
                        <tr key={a.user.id}>
                          <td>{a.user.name}</td>
                          <td>{formatNumber(a.solved)}</td>
                          <td>{duration(a.first_response_p50_minutes)}</td>
                        </tr>
                      ))}
                    </tbody>
                  </table>
                </section>
              )}
            </section>
          </>
        ) : null}
      </div>
    </section>
  );
}
