import { useQuery } from "@tanstack/react-query";
import { lazy, Suspense, useState } from "react";
import { api } from "../lib/api/client";
import type { Overview } from "../lib/api/types";
import { Empty, ErrorBox, Loading } from "../lib/ui/states";

const reportsKeys = { overview: (from: string, to: string) => ["reports", "overview", from, to] as const };

// uPlot comes with the chart only: nothing of it loads before this page draws one.
const DayChart = lazy(() => import("./DayChart"));

const DAY = 86_400_000;
const isoDay = (d: Date) => d.toISOString().slice(0, 10);
const PRESETS = [7, 30, 90] as const;

/** Minutes as "45m", "3h 20m" or "2d 4h"; a dash when there is no figure. */
export function duration(minutes: number | null): string {
  if (minutes === null) return "—";
  const m = Math.round(minutes);
  if (m < 60) return `${m}m`;
  if (m < 24 * 60) return `${Math.floor(m / 60)}h${m % 60 ? ` ${m % 60}m` : ""}`;
  const h = Math.floor(m / 60);
  return `${Math.floor(h / 24)}d${h % 24 ? ` ${h % 24}h` : ""}`;
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

function Bars({ title, data }: { title: string; data: Array<[string, number]> }) {
  const max = Math.max(1, ...data.map(([, n]) => n));
  const id = `bars-${title.replace(/\W+/g, "-").toLowerCase()}`;
  return (
    <section className="report-card" aria-labelledby={id}>
      <h2 id={id}>{title}</h2>
      {data.length === 0 ? (
        <p className="muted small">No tickets.</p>
      ) : (
        <table className="bars">
          <tbody>
            {data.map(([label, n]) => (
              <tr key={label}>
                <th scope="row">{label}</th>
                <td className="bar-cell">
                  <span className="bar" style={{ width: `${(n / max) * 100}%` }} />
                </td>
                <td className="num">{n}</td>
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
        <h1>Reports</h1>
        <form className="report-range" onSubmit={(e) => e.preventDefault()} aria-label="Date range">
          <label htmlFor="report-from">From</label>
          <input
            id="report-from"
            type="date"
            value={range.from}
            max={range.to}
            onChange={(e) => setRange((r) => ({ ...r, from: e.target.value }))}
          />
          <label htmlFor="report-to">To</label>
          <input
            id="report-to"
            type="date"
            value={range.to}
            min={range.from}
            onChange={(e) => setRange((r) => ({ ...r, to: e.target.value }))}
          />
          {PRESETS.map((days) => (
            <button key={days} type="button" className="btn btn-ghost" onClick={() => preset(days)}>
              Last {days} days
            </button>
          ))}
          <button
            type="button"
            className="btn"
            disabled={!o}
            onClick={() => o && download(`desk-report-${range.from}-to-${range.to}.csv`, overviewCsv(o))}
          >
            Export CSV
          </button>
        </form>
      </div>
      <div className="report-body">
        {!valid ? (
          <p className="form-error" role="alert">
            The start date must be on or before the end date.
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
                  ["Created", String(o.created)],
                  ["Solved", String(o.solved)],
                  ["Open now", String(o.open_now)],
                  ["First response (median)", duration(o.first_response_p50_minutes)],
                  ["Resolution (median)", duration(o.resolution_p50_minutes)],
                  ["CSAT", o.csat_avg === null ? "—" : `${o.csat_avg.toFixed(2)} / 5 (${o.csat_count})`],
                  ["SLA breaches", String(o.sla_breached)],
                ] as const
              ).map(([label, value]) => (
                <div key={label} className="kpi">
                  <dt>{label}</dt>
                  <dd>{value}</dd>
                </div>
              ))}
            </dl>
            <section className="report-card" aria-labelledby="by-day">
              <h2 id="by-day">Created and solved by day</h2>
              {o.by_day.length === 0 ? (
                <Empty title="No days in this range" />
              ) : (
                <>
                  <Suspense fallback={<Loading label="Loading chart…" />}>
                    <DayChart
                      days={o.by_day}
                      label={`Tickets created and solved per day from ${range.from} to ${range.to}; the figures are in the table below.`}
                    />
                  </Suspense>
                  <details>
                    <summary>Show the figures</summary>
                    <table className="table">
                      <thead>
                        <tr>
                          <th scope="col">Date</th>
                          <th scope="col">Created</th>
                          <th scope="col">Solved</th>
                        </tr>
                      </thead>
                      <tbody>
                        {o.by_day.map((d) => (
                          <tr key={d.date}>
                            <td>{d.date}</td>
                            <td>{d.created}</td>
                            <td>{d.solved}</td>
                          </tr>
                        ))}
                      </tbody>
                    </table>
                  </details>
                </>
              )}
            </section>
            <div className="report-grid">
              <Bars title="By channel" data={Object.entries(o.by_channel)} />
              <Bars
                title="By severity"
                data={Object.entries(o.by_severity).map(([k, n]) => [k === "none" ? "None" : k.toUpperCase(), n])}
              />
            </div>
            <section className="report-card" aria-labelledby="by-agent">
              <h2 id="by-agent">By agent</h2>
              {o.by_agent.length === 0 ? (
                <p className="muted small">No agent solved or answered a ticket in this range.</p>
              ) : (
                // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region keyboard users must reach to scroll
                <section className="table-scroll" tabIndex={0} aria-label="Agents">
                  <table className="table">
                    <thead>
                      <tr>
                        <th scope="col">Agent</th>
                        <th scope="col">Solved</th>
                        <th scope="col">First response (median)</th>
                      </tr>
                    </thead>
                    <tbody>
                      {o.by_agent.map((a) => (
                        <tr key={a.user.id}>
                          <td>{a.user.name}</td>
                          <td>{a.solved}</td>
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
