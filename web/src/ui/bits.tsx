import type { ReactNode } from "react";
import type { LabelColor, Priority, TagRef, TicketStatus } from "../api/types";
import { useDismiss } from "./layers";

export const statusLabel = (s: string) => s.replace("_", " ").replace(/^./, (c) => c.toUpperCase());

export function StatusPill({ status }: { status: TicketStatus }) {
  return <span className={`pill pill-${status}`}>{statusLabel(status)}</span>;
}

const PRIORITY_MARK: Record<Priority, string> = { low: "▁", normal: "▃", high: "▅", urgent: "▇" };
export function PriorityMark({ priority }: { priority: Priority }) {
  return (
    <span className={`prio prio-${priority}`} title={`Priority: ${priority}`} aria-label={`Priority ${priority}`}>
      {PRIORITY_MARK[priority]}
    </span>
  );
}

export function TagChip({ tag, onRemove }: { tag: Pick<TagRef, "name" | "color">; onRemove?: () => void }) {
  return (
    <span className={`chip chip-${tag.color as LabelColor}`}>
      <span className="chip-dot" />
      {tag.name}
      {onRemove && (
        <button className="chip-x" onClick={onRemove} aria-label={`Remove ${tag.name}`}>
          ×
        </button>
      )}
    </span>
  );
}

export function Avatar({ name, url, size = 24 }: { name: string; url?: string | null; size?: number }) {
  const initials = name.split(/\s+/).filter(Boolean).slice(0, 2).map((p) => p[0]?.toUpperCase()).join("") || "?";
  const hue = [...name].reduce((h, c) => (h * 31 + c.charCodeAt(0)) % 360, 7);
  if (url) return <img className="avatar" src={url} alt="" width={size} height={size} />;
  return (
    <span className="avatar" style={{ width: size, height: size, fontSize: size * 0.42, background: `hsl(${hue} 45% 52%)` }} aria-hidden>
      {initials}
    </span>
  );
}

const units: Array<[number, string]> = [[60, "s"], [60, "m"], [24, "h"], [7, "d"], [4.35, "w"], [12, "mo"]];
export function timeAgo(iso: string | null | undefined): string {
  if (!iso) return "";
  let value = (Date.now() - new Date(iso).getTime()) / 1000;
  if (value < 45) return "now";
  for (const [size, unit] of units) {
    if (value < size) return `${Math.floor(value)}${unit}`;
    value /= size;
  }
  return `${Math.floor(value)}y`;
}

export function Modal({ title, onClose, children, wide }: { title: string; onClose: () => void; children: ReactNode; wide?: boolean }) {
  useDismiss(onClose);
  return (
    <div className="modal-backdrop" onMouseDown={(e) => e.target === e.currentTarget && onClose()}>
      <div className={`modal${wide ? " modal-wide" : ""}`} role="dialog" aria-modal aria-label={title}>
        <div className="modal-head">
          <h2>{title}</h2>
          <button className="btn-icon" onClick={onClose} aria-label="Close">
            ×
          </button>
        </div>
        {children}
      </div>
    </div>
  );
}

/** Is the keyboard focus in a text control (so single-key shortcuts stay out of the way)? */
export const typingInField = () => {
  const el = document.activeElement as HTMLElement | null;
  return !!el && (el.tagName === "INPUT" || el.tagName === "TEXTAREA" || el.tagName === "SELECT" || el.isContentEditable);
};
