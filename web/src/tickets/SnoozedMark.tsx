import { formatDateTime, t } from "../lib/i18n/i18n";

/** "Snoozed until …" on a ticket row or page: a snoozed ticket is out of the working folders until then. */
export function SnoozedMark({ until }: { until: string | null }) {
  if (!until) return null;
  const at = new Date(until);
  const sameDay = at.toDateString() === new Date().toDateString();
  const text = sameDay
    ? formatDateTime(at, { hour: "2-digit", minute: "2-digit" })
    : formatDateTime(at, { month: "short", day: "numeric", hour: "2-digit", minute: "2-digit" });
  const full = formatDateTime(at, {
    year: "numeric",
    month: "numeric",
    day: "numeric",
    hour: "numeric",
    minute: "numeric",
    second: "numeric",
  });
  return (
    <span className="pill pill-snoozed" data-testid="snoozed-mark" title={t("tickets.snoozedUntil", { time: full })}>
      {t("tickets.snoozedUntil", { time: text })}
    </span>
  );
}
