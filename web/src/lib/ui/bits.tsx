import { type ReactNode, useEffect, useRef, useState } from "react";
import type { LabelColor, Priority, TagRef, TicketStatus } from "../api/types";
import { useDismiss } from "./layers";
import { PriorityBars } from "./icons";

export const statusLabel = (s: string) => s.replace("_", " ").replace(/^./, (c) => c.toUpperCase());

export function StatusPill({ status }: { status: TicketStatus }) {
  return <span className={`pill pill-${status}`}>{statusLabel(status)}</span>;
}

export function PriorityMark({ priority }: { priority: Priority }) {
  return (
    <span
      className={`prio prio-${priority}`}
      role="img"
      title={`Priority: ${priority}`}
      aria-label={`Priority ${priority}`}
    >
      <PriorityBars priority={priority} />
    </span>
  );
}

export function TagChip({ tag, onRemove }: { tag: Pick<TagRef, "name" | "color">; onRemove?: () => void }) {
  return (
    <span className={`chip chip-${tag.color as LabelColor}`}>
      <span className="chip-dot" />
      {tag.name}
      {onRemove && (
        <button type="button" className="chip-x" onClick={onRemove} aria-label={`Remove ${tag.name}`}>
          ×
        </button>
      )}
    </span>
  );
}

export function Avatar({ name, url, size = 24 }: { name: string; url?: string | null; size?: number }) {
  const initials =
    name
      .split(/\s+/)
      .filter(Boolean)
      .slice(0, 2)
      .map((p) => p[0]?.toUpperCase())
      .join("") || "?";
  // Dark enough for white initials at 4.5:1 whatever the hue (WCAG 1.4.3).
  const hue = [...name].reduce((h, c) => (h * 31 + c.charCodeAt(0)) % 360, 7);
  if (url) return <img className="avatar" src={url} alt="" width={size} height={size} />;
  return (
    <span
      className="avatar"
      style={{ width: size, height: size, fontSize: size * 0.42, background: `hsl(${hue} 45% 32%)` }}
      aria-hidden
    >
      {initials}
    </span>
  );
}

const units: Array<[number, string]> = [
  [60, "s"],
  [60, "m"],
  [24, "h"],
  [7, "d"],
  [4.35, "w"],
  [12, "mo"],
];
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

const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]):not([type="hidden"]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';
const focusables = (root: HTMLElement) =>
  [...root.querySelectorAll<HTMLElement>(FOCUSABLE)].filter(
    (el) => el.offsetParent !== null || el === document.activeElement,
  );

/**
 * A modal dialog that behaves like one for keyboard users: focus moves in when it opens (unless a
 * field took it with autoFocus), Tab and Shift+Tab cycle inside it, and closing gives focus back to
 * the control that opened it.
 */
export function Modal({
  title,
  onClose,
  children,
  wide,
}: {
  title: string;
  onClose: () => void;
  children: ReactNode;
  wide?: boolean;
}) {
  const box = useRef<HTMLDivElement>(null);
  // Read during the first render, before an autoFocus field inside takes the focus.
  const [opener] = useState(() => document.activeElement as HTMLElement | null);
  useDismiss(onClose);
  useEffect(() => {
    const dialog = box.current;
    if (!dialog) return;
    if (!dialog.contains(document.activeElement)) (focusables(dialog)[0] ?? dialog).focus();
    // Focus that lands outside (a click on the page behind, a script) comes back in.
    const keepIn = (e: FocusEvent) => {
      // Only the topmost dialog (the last one in the page) holds the focus.
      const dialogs = document.querySelectorAll('[role="dialog"]');
      if (dialogs[dialogs.length - 1] !== dialog) return;
      if (e.target instanceof Node && !dialog.contains(e.target)) (focusables(dialog)[0] ?? dialog).focus();
    };
    document.addEventListener("focusin", keepIn);
    return () => {
      document.removeEventListener("focusin", keepIn);
      if (opener?.isConnected && opener !== document.body) opener.focus();
    };
  }, [opener]);
  const trap = (e: React.KeyboardEvent) => {
    if (e.key !== "Tab" || !box.current) return;
    const list = focusables(box.current);
    if (!list.length) return e.preventDefault();
    const [first, last] = [list[0], list[list.length - 1]];
    if (e.shiftKey && (document.activeElement === first || !box.current.contains(document.activeElement))) {
      e.preventDefault();
      last.focus();
    } else if (!e.shiftKey && document.activeElement === last) {
      e.preventDefault();
      first.focus();
    }
  };
  return (
    <div className="modal-backdrop" onMouseDown={(e) => e.target === e.currentTarget && onClose()}>
      <div
        ref={box}
        className={`modal${wide ? " modal-wide" : ""}`}
        role="dialog"
        aria-modal
        aria-label={title}
        tabIndex={-1}
        onKeyDown={trap}
      >
        <div className="modal-head">
          <h2>{title}</h2>
          <button type="button" className="btn-icon" onClick={onClose} aria-label="Close">
            ×
          </button>
        </div>
        {children}
      </div>
    </div>
  );
}

/**
 * Is the keyboard focus on a control of its own (a button, link, field or widget)? Enter and Space
 * then belong to that control, not to a page shortcut.
 */
export const focusOnControl = () => {
  const el = document.activeElement as HTMLElement | null;
  return (
    !!el &&
    el !== document.body &&
    !!el.closest(
      'a[href], button, input, select, textarea, summary, [role="button"], [role="tab"], [role="menuitem"], [role="checkbox"], [contenteditable="true"], [tabindex]:not([tabindex="-1"])',
    )
  );
};

/** Is the keyboard focus in a text control (so single-key shortcuts stay out of the way)? */
export const typingInField = () => {
  const el = document.activeElement as HTMLElement | null;
  return (
    !!el && (el.tagName === "INPUT" || el.tagName === "TEXTAREA" || el.tagName === "SELECT" || el.isContentEditable)
  );
};
