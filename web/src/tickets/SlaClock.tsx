import { useEffect, useState } from "react";
import type { Ticket } from "../lib/api/types";
import { minutesText } from "../lib/sla-time";

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
  new Date(iso).toLocaleString(undefined, {
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
type Target = { label: string; due: string | null; done: string | null };

type DeadlineState = "met" | "late" | "overdue" | "soon" | "due" | "paused";

/** Met or late (by how much) once done, overdue or due in … while running, paused without a deadline. */
function deadlineState(target: Target, now: number): { state: DeadlineState; text: string } {
  if (!target.due) return { state: "paused", text: "Paused" };
  const due = new Date(target.due).getTime();
  if (target.done) {
    const late = new Date(target.done).getTime() - due;
    return late > 0 ? { state: "late", text: `Late by ${span(late)}` } : { state: "met", text: "Met" };
  }
  const left = due - now;
  if (left < 0) return { state: "overdue", text: `Overdue by ${span(left)}` };
  return { state: left < SOON_MS ? "soon" : "due", text: `Due in ${span(left)}` };
}

function Deadline({ target, now }: { target: Target; now: number }) {
  const { state, text } = deadlineState(target, now);
  return (
    <li className={`sla-target sla-${state}`}>
      <span className="sla-target-label">{target.label}</span> <span className="sla-target-state">{text}</span>{" "}
      {target.due ? (
        <time className="muted small" dateTime={target.due}>
          (due {localTime(target.due)})
        </time>
      ) : (
        <span className="muted small">(no business hours ahead)</span>
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
    { label: "First response", due: sla.first_response_due_at, done: ticket.first_responded_at ?? solvedAt },
    { label: "Resolution", due: sla.resolution_due_at, done: solvedAt },
  ];
  // Without a policy (it was deleted) a missing deadline means nothing is measured, not a pause.
  const shown = targets.filter((t) => t.due !== null || sla.policy_id !== null);
  return (
    <section className="sla-clock" aria-label="SLA">
      <h3>SLA {sla.breached && <span className="pill pill-failed">Breached</span>}</h3>
      <ul className="sla-targets">
        {shown.map((t) => (
          <Deadline key={t.label} target={t} now={now} />
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
      <span className="pill pill-failed" title={pending ? `Due ${localTime(pending)}` : undefined}>
        {left < 0 ? "Overdue" : "SLA breached"}
      </span>
    );
  if (left < SOON_MS)
    return (
      <span className="pill pill-pending" title={`Due ${localTime(pending!)}`}>
        Due in {span(left)}
      </span>
    );
  return null;
}
