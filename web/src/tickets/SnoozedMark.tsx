/** "Snoozed until …" on a ticket row or page: a snoozed ticket is out of the working folders until then. */
export function SnoozedMark({ until }: { until: string | null }) {
  if (!until) return null;
  const at = new Date(until);
  const sameDay = at.toDateString() === new Date().toDateString();
  const text = sameDay
    ? at.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" })
    : at.toLocaleString([], { month: "short", day: "numeric", hour: "2-digit", minute: "2-digit" });
  return (
    <span className="pill pill-snoozed" data-testid="snoozed-mark" title={`Snoozed until ${at.toLocaleString()}`}>
      Snoozed until {text}
    </span>
  );
}
