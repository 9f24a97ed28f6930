import { lazy, Suspense, useState } from "react";
import { Empty, ErrorBox, Loading } from "../lib/ui/states";
import { featureName, formatReportDay, formatUsd, useUsageReport } from "./ai.queries";
import { formatNumber, t } from "../lib/i18n/i18n";
import { tNodes } from "../lib/i18n/nodes";

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
      <h1>{t("ai.usageTitle")}</h1>
      <label className="field narrow">
        <span className="field-label">{t("ai.month")}</span>
        <input type="month" value={month} onChange={(e) => e.target.value && setMonth(e.target.value)} />
      </label>
      {report.isPending ? (
        <Loading />
      ) : report.isError ? (
        <ErrorBox error={report.error} retry={() => report.refetch()} />
      ) : report.data.total_calls === 0 ? (
        <Empty title={t("ai.noCalls")} />
      ) : (
        <>
          <p>
            {tNodes(
              report.data.own_key_calls > 0 ? "ai.spentWithOwnKey" : "ai.spent",
              { usd: <strong>{formatUsd(report.data.total_usd)}</strong> },
              { calls: formatNumber(report.data.total_calls), own: formatNumber(report.data.own_key_calls) },
            )}
          </p>
          <Suspense fallback={<Loading label={t("ai.loadingChart")} />}>
            <UsageChart days={report.data.by_day} />
          </Suspense>
          <div className="usage-tables">
            <table className="table" aria-label={t("ai.byFeature")}>
              <thead>
                <tr>
                  <th>{t("ai.feature")}</th>
                  <th className="num">{t("ai.calls")}</th>
                  <th className="num">{t("ai.cost")}</th>
                </tr>
              </thead>
              <tbody>
                {report.data.by_feature.map((r) => (
                  <tr key={r.feature}>
                    <td>{featureName(r.feature)}</td>
                    <td className="num">{formatNumber(r.calls)}</td>
                    <td className="num">{formatUsd(r.usd)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
            <table className="table" aria-label={t("ai.byMember")}>
              <thead>
                <tr>
                  <th>{t("ai.member")}</th>
                  <th className="num">{t("ai.calls")}</th>
                  <th className="num">{t("ai.cost")}</th>
                </tr>
              </thead>
              <tbody>
                {report.data.by_member.map((r) => (
                  <tr key={r.user?.id ?? "automation"}>
                    <td>{r.user?.name ?? t("ai.automationsAndAgent")}</td>
                    <td className="num">{formatNumber(r.calls)}</td>
                    <td className="num">{formatUsd(r.usd)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
            <table className="table" aria-label={t("ai.byModel")}>
              <thead>
                <tr>
                  <th>{t("ai.model")}</th>
                  <th className="num">{t("ai.tokensInOut")}</th>
                  <th className="num">{t("ai.calls")}</th>
                  <th className="num">{t("ai.cost")}</th>
                </tr>
              </thead>
              <tbody>
                {report.data.by_model.map((r) => (
                  <tr key={`${r.model}-${r.source}`}>
                    <td>{r.source === "own_key" ? t("ai.modelOwnKey", { model: r.model }) : r.model}</td>
                    <td className="num">
                      {formatNumber(r.input_tokens)} / {formatNumber(r.output_tokens)}
                    </td>
                    <td className="num">{formatNumber(r.calls)}</td>
                    <td className="num">{formatUsd(r.usd)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
            <table className="table" aria-label={t("ai.byDay")}>
              <thead>
                <tr>
                  <th>{t("ai.day")}</th>
                  <th className="num">{t("ai.calls")}</th>
                  <th className="num">{t("ai.cost")}</th>
                </tr>
              </thead>
              <tbody>
                {report.data.by_day.map((r) => (
                  <tr key={r.date}>
                    <td>
                      <time dateTime={r.date}>{formatReportDay(r.date)}</time>
                    </td>
                    <td className="num">{formatNumber(r.calls)}</td>
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
