import { lazy, Suspense, useState } from "react";
import { Empty, ErrorBox, Loading } from "../lib/ui/states";
import { formatUsd, useUsageReport } from "./ai.queries";

const UsageChart = lazy(() => import("./UsageChart"));

const thisMonth = () => new Date().toISOString().slice(0, 7);

/** Settings › AI usage: the usage report by feature, day, member and model, with a chart of days. */
export default function AiUsage() {
  const [month, setMonth] = useState(thisMonth());
  const [year, mon] = month.split("-").map(Number) as [number, number];
  const from = `${month}-01`;
  const last = new Date(Date.UTC(year, mon, 0)).toISOString().slice(0, 10);
  const report = useUsageReport({ from, to: last });
  return (
    <div className="settings-page">
      <h1>AI usage</h1>
      <label className="field narrow">
        <span className="field-label">Month</span>
        <input type="month" value={month} onChange={(e) => e.target.value && setMonth(e.target.value)} />
      </label>
      {report.isPending ? (
        <Loading />
      ) : report.isError ? (
        <ErrorBox error={report.error} retry={() => report.refetch()} />
      ) : report.data.total_calls === 0 ? (
        <Empty title="No AI calls this month" />
      ) : (
        <>
          <p>
            <strong>{formatUsd(report.data.total_usd)}</strong> in {report.data.total_calls} calls
            {report.data.own_key_calls > 0 && ` (${report.data.own_key_calls} on the workspace's own key, free)`}.
          </p>
          <Suspense fallback={<Loading label="Loading chart…" />}>
            <UsageChart days={report.data.by_day} />
          </Suspense>
          <div className="usage-tables">
            <table className="table" aria-label="By feature">
              <thead>
                <tr>
                  <th>Feature</th>
                  <th className="num">Calls</th>
                  <th className="num">Cost</th>
                </tr>
              </thead>
              <tbody>
                {report.data.by_feature.map((r) => (
                  <tr key={r.feature}>
                    <td>{r.feature.replace(/_/g, " ")}</td>
                    <td className="num">{r.calls}</td>
                    <td className="num">{formatUsd(r.usd)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
            <table className="table" aria-label="By member">
              <thead>
                <tr>
                  <th>Member</th>
                  <th className="num">Calls</th>
                  <th className="num">Cost</th>
                </tr>
              </thead>
              <tbody>
                {report.data.by_member.map((r) => (
                  <tr key={r.user?.id ?? "automation"}>
                    <td>{r.user?.name ?? "Automations and AI agent"}</td>
                    <td className="num">{r.calls}</td>
                    <td className="num">{formatUsd(r.usd)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
            <table className="table" aria-label="By model">
              <thead>
                <tr>
                  <th>Model</th>
                  <th className="num">Tokens in / out</th>
                  <th className="num">Calls</th>
                  <th className="num">Cost</th>
                </tr>
              </thead>
              <tbody>
                {report.data.by_model.map((r) => (
                  <tr key={`${r.model}-${r.source}`}>
                    <td>
                      {r.model}
                      {r.source === "own_key" ? " (own key)" : ""}
                    </td>
                    <td className="num">
                      {r.input_tokens.toLocaleString()} / {r.output_tokens.toLocaleString()}
                    </td>
                    <td className="num">{r.calls}</td>
                    <td className="num">{formatUsd(r.usd)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
            <table className="table" aria-label="By day">
              <thead>
                <tr>
                  <th>Day</th>
                  <th className="num">Calls</th>
                  <th className="num">Cost</th>
                </tr>
              </thead>
              <tbody>
                {report.data.by_day.map((r) => (
                  <tr key={r.date}>
                    <td>{r.date}</td>
                    <td className="num">{r.calls}</td>
                    <td className="num">{formatUsd(r.usd)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      )}
    </div>
  );
}
