import { useEffect, useState } from "react";
import type { Ticket } from "../lib/api/types";
import { minutesText } from "../lib/sla-time";
import { formatDateTime, t } from "../lib/i18n/i18n";

const SOLVED = new Set(["solved", "closed"]);
const SOON_MS = 60 * 60_000;

/** The time now, moving every 30 seconds while mounted. */
function useNow(): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 30_000);
    return () => clearInterval(timer);
  }, []);
  return now;
}

const span = (ms: number) => minutesText(Math.max(1, Math.round(Math.abs(ms) / 60_000)));
const localTime = (iso: string) =>
  formatDateTime(iso, {
    weekday: "short",
    day: "numeric",
    month: "short",
    hour: "2-digit",
    minute: "2-digit",
  });

/**
 * One deadline of the ticket: `done` is when it was met (the first agent reply, or solving), null
 * while it is still running. `due` null with a policy means the clock is not running: the policy
 * counts business hours and none are ahead.
 */
type Target = { key: string; label: string; due: string | null; done: string | null };

type DeadlineState = "met" | "late" | "overdue" | "soon" | "due" | "paused";

/** Met or late (by how much) once done, overdue or due in … while running, paused without a deadline. */
function deadlineState(target: Target, now: number): { state: DeadlineState; text: string } {
  if (!target.due) return { state: "paused", text: t("tickets.slaPaused") };
  const due = new Date(target.due).getTime();
  if (target.done) {
    const late = new Date(target.done).getTime() - due;
    return late > 0
      ? { state: "late", text: t("tickets.slaLateBy", { time: span(late) }) }
      : { state: "met", text: t("tickets.slaMet") };
  }
  const left = due - now;
  if (left < 0) return { state: "overdue", text: t("tickets.slaOverdueBy", { time: span(left) }) };
  return { state: left < SOON_MS ? "soon" : "due", text: t("tickets.slaDueIn", { time: span(left) }) };
}

function Deadline({ target, now }: { target: Target; now: number }) {
  const { state, text } = deadlineState(target, now);
  return (
    <li className={`sla-target sla-${state}`}>
      <span className="sla-target-label">{target.label}</span> <span className="sla-target-state">{text}</span>{" "}
      {target.due ? (
        <time className="muted small" dateTime={target.due}>
          {t("tickets.slaDueAt", { time: localTime(target.due) })}
        </time>
      ) : (
        <span className="muted small">{t("tickets.slaNoBusinessHours")}</span>
      )}
    </li>
  );
}

/** The ticket's SLA clock in its sidebar: each deadline from the ticket's real times, and whether one was missed. */
export function SlaClock({ ticket }: { ticket: Ticket }) {
  const now = useNow();
  const sla = ticket.sla;
  if (!sla) return null;
  const solvedAt = SOLVED.has(ticket.status) ? (ticket.solved_at ?? ticket.updated_at) : null;
  const targets: Target[] = [
    // Solving without a reply also ends the first-response clock (the server stops it then).
    {
      key: "first_response",
      label: t("tickets.firstResponse"),
      due: sla.first_response_due_at,
      done: ticket.first_responded_at ?? solvedAt,
    },
    { key: "resolution", label: t("tickets.resolution"), due: sla.resolution_due_at, done: solvedAt },
  ];
  // Without a policy (it was deleted) a missing deadline means nothing is measured, not a pause.
  const shown = targets.filter((target) => target.due !== null || sla.policy_id !== null);
  return (
    <section className="sla-clock" aria-label={t("tickets.sla")}>
      <h3>
        {t("tickets.sla")} {sla.breached && <span className="pill pill-failed">{t("tickets.slaBreachedPill")}</span>}
      </h3>
      <ul className="sla-targets">
        {shown.map((target) => (
          <Deadline key={target.key} target={target} now={now} />
        ))}
      </ul>
    </section>
  );
}

/** The list row's mark: the nearest pending deadline when it is overdue or within the hour, or a breach. */
export function SlaMark({ ticket }: { ticket: Ticket }) {
  const sla = ticket.sla;
  if (!sla || SOLVED.has(ticket.status)) return null;
  const pending = [!ticket.first_responded_at ? sla.first_response_due_at : null, sla.resolution_due_at]
    .filter((v): v is string => !!v)
    .sort()[0];
  const left = pending ? new Date(pending).getTime() - Date.now() : Number.POSITIVE_INFINITY;
  if (left < 0 || sla.breached)
    return (
      <span
        className="pill pill-failed"
        title={pending ? t("tickets.slaDue", { time: localTime(pending) }) : undefined}
      >
        {left < 0 ? t("tickets.slaOverdue") : t("tickets.slaBreached")}
      </span>
    );
  if (left < SOON_MS)
    return (
      <span className="pill pill-pending" title={t("tickets.slaDue", { time: localTime(pending!) })}>
        {t("tickets.slaDueIn", { time: span(left) })}
      </span>
    );
  return null;
}
