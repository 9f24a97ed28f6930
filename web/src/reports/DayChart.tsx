import "uplot/dist/uPlot.min.css";
import { useEffect, useRef } from "react";
import uPlot from "uplot";
import { formatDateTime, t } from "../lib/i18n/i18n";

type Day = { date: string; created: number; solved: number };

/** A chart instant (seconds, a UTC day's start) as a short day: "Nov 3", "3. Nov.". */
const dayName = (ts: number) =>
  formatDateTime(new Date(ts * 1000), { month: "short", day: "numeric", timeZone: "UTC" });

const cssVar = (name: string, fallback: string) =>
  getComputedStyle(document.documentElement).getPropertyValue(name).trim() || fallback;

/**
 * Created and solved tickets per day as two lines (uPlot, loaded with this module only when the
 * reports page shows a chart). The figures are also in the table beside it for screen readers.
 */
export default function DayChart({
  days,
  label,
  seriesLabels,
}: {
  days: Day[];
  label: string;
  /** The legend's names of the created and the solved line, in the reader's language. */
  seriesLabels: [string, string];
}) {
  const [createdLabel, solvedLabel] = seriesLabels;
  const dateLabel = t("reports.date");
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const x = days.map((d) => Date.UTC(+d.date.slice(0, 4), +d.date.slice(5, 7) - 1, +d.date.slice(8, 10)) / 1000);
    const fg = cssVar("--fg-soft", "#5d5e66");
    const grid = cssVar("--line", "#e4e4e8");
    const axis = { stroke: fg, grid: { stroke: grid, width: 1 }, ticks: { stroke: grid, width: 1 } };
    const plot = new uPlot(
      {
        width: Math.max(280, el.clientWidth),
        height: 240,
        tzDate: (ts) => uPlot.tzDate(new Date(ts * 1000), "Etc/UTC"),
        scales: { y: { range: (_u, _min, max) => [0, Math.max(4, Math.ceil(max * 1.1))] } },
        // Days on the axis and in the legend as the reader's language writes them (uPlot's own are English).
        axes: [
          { ...axis, values: (_u, splits) => splits.map(dayName) },
          { ...axis, size: 44 },
        ],
        series: [
          { label: dateLabel, value: (_u, ts) => (ts === null ? "—" : dayName(ts)) },
          { label: createdLabel, stroke: cssVar("--accent", "#4f46e5"), width: 2, points: { show: days.length <= 45 } },
          {
            label: solvedLabel,
            stroke: cssVar("--ok", "#167341"),
            width: 2,
            dash: [6, 4],
            points: { show: days.length <= 45 },
          },
        ],
        legend: { live: true },
      },
      [x, days.map((d) => d.created), days.map((d) => d.solved)],
      el,
    );
    const resize = new ResizeObserver(() => plot.setSize({ width: Math.max(280, el.clientWidth), height: 240 }));
    resize.observe(el);
    return () => {
      resize.disconnect();
      plot.destroy();
    };
  }, [days, createdLabel, solvedLabel, dateLabel]);
  return <div ref={box} className="day-chart" role="img" aria-label={label} data-testid="day-chart" />;
}
