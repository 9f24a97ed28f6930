import type { UsageReport } from "../lib/api/types";
import { formatReportDay, formatUsd } from "./ai.queries";
import { formatDateTime, formatNumber, t } from "../lib/i18n/i18n";

/**
 * Spend per day as bars (SVG, drawn from the report; loaded only on the usage page). The table
 * beside it carries the same figures for screen readers, so the chart itself is decorative.
 */
export default function UsageChart({ days }: { days: UsageReport["by_day"] }) {
  const width = 640;
  const height = 160;
  const max = Math.max(...days.map((d) => d.usd), 0.000001);
  const bar = width / Math.max(days.length, 1);
  return (
    <figure className="usage-chart">
      <svg viewBox={`0 0 ${width} ${height + 20}`} role="img" aria-label={t("ai.spendPerDay")}>
        {days.map((d, i) => {
          const h = Math.max(2, (d.usd / max) * height);
          return (
            <g key={d.date}>
              <rect x={i * bar + 2} y={height - h} width={Math.max(bar - 4, 1)} height={h} className="usage-bar">
                <title>
                  {t("ai.dayBar", {
                    date: formatReportDay(d.date),
                    usd: formatUsd(d.usd),
                    calls: formatNumber(d.calls),
                  })}
                </title>
              </rect>
              {(days.length <= 12 || i % Math.ceil(days.length / 12) === 0) && (
                <text x={i * bar + bar / 2} y={height + 14} textAnchor="middle" className="usage-axis">
                  {formatDateTime(`${d.date}T00:00:00Z`, { month: "2-digit", day: "2-digit", timeZone: "UTC" })}
                </text>
              )}
            </g>
          );
        })}
      </svg>
      <figcaption className="muted small">{t("ai.spendCaption", { usd: formatUsd(max) })}</figcaption>
    </figure>
  );
}
