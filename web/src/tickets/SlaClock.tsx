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

type Target = { label: string; due: string | null; met: boolean };

/** One deadline: met, due in …, or overdue by … */
function Deadline({ target, now }: { target: Target; now: number }) {
  if (!target.due) return null;
  const left = new Date(target.due).getTime() - now;
  const state = target.met ? "met" : left < 0 ? "overdue" : left < SOON_MS ? "soon" : "due";
  const text = state === "met" ? "Met" : state === "overdue" ? `Overdue by ${span(left)}` : `Due in ${span(left)}`;
  return (
    <li className={`sla-target sla-${state}`}>
      <span className="sla-target-label">{target.label}</span> <span className="sla-target-state">{text}</span>{" "}
      <time className="muted small" dateTime={target.due}>
        ({localTime(target.due)})
      </time>
    </li>
  );
}

/** The ticket's SLA clock in its sidebar: each deadline and whether one was missed. */
export function SlaClock({ ticket }: { ticket: Ticket }) {
  const now = useNow();
  const sla = ticket.sla;
  if (!sla) return null;
  const solved = SOLVED.has(ticket.status);
  const targets: Target[] = [
    { label: "First response", due: sla.first_response_due_at, met: !!ticket.first_responded_at || solved },
    { label: "Resolution", due: sla.resolution_due_at, met: solved },
  ];
  return (
    <section className="sla-clock" aria-label="SLA">
      <h3>SLA {sla.breached && <span className="pill pill-failed">Breached</span>}</h3>
      <ul className="sla-targets">
        {targets.map((t) => (
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
