import { type ReactNode, useEffect, useRef, useState } from "react";
import {
  CHANNELS,
  type LabelColor,
  PRIORITIES,
  type Priority,
  STATUSES,
  type TagRef,
  type TicketStatus,
} from "../api/types";
import { useDismiss } from "./layers";
import { PriorityBars } from "./icons";
import { t } from "../i18n/i18n";

/** Wire values whose display names the catalogue holds (ticket status, priority and channel). */
const NAMED_VALUES = new Set<string>([...STATUSES, ...PRIORITIES, ...CHANNELS]);

/** A wire value as a label ("On hold"); values the catalogue does not name are spelled out as they come. */
export const statusLabel = (s: string) =>
  NAMED_VALUES.has(s)
    ? t("common.valueLabel", { value: s })
    : s.replace("_", " ").replace(/^./, (c) => c.toUpperCase());

/** A wire value as a word inside a sentence ("status: on hold"). */
export const valueInText = (s: string) =>
  NAMED_VALUES.has(s) ? t("common.valueInText", { value: s }) : s.replaceAll("_", " ");

export function StatusPill({ status }: { status: TicketStatus }) {
  return <span className={`pill pill-${status}`}>{statusLabel(status)}</span>;
}

export function PriorityMark({ priority }: { priority: Priority }) {
  return (
    <span
      className={`prio prio-${priority}`}
      role="img"
      title={t("common.priorityTitle", { priority: valueInText(priority) })}
      aria-label={t("common.priorityName", { priority: valueInText(priority) })}
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
        <button
          type="button"
          className="chip-x"
          onClick={onRemove}
          aria-label={t("common.removeItem", { name: tag.name })}
        >
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

const units = [
  [60, "common.unitSeconds"],
  [60, "common.unitMinutes"],
  [24, "common.unitHours"],
  [7, "common.unitDays"],
  [4.35, "common.unitWeeks"],
  [12, "common.unitMonths"],
] as const;
/** A compact age for lists: "now", "5m", "3h", "2d". */
export function timeAgo(iso: string | null | undefined): string {
  if (!iso) return "";
  let value = (Date.now() - new Date(iso).getTime()) / 1000;
  if (value < 45) return t("common.now");
  for (const [size, unit] of units) {
    if (value < size) return t(unit, { count: Math.floor(value) });
    value /= size;
  }
  return t("common.unitYears", { count: Math.floor(value) });
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
          <button type="button" className="btn-icon" onClick={onClose} aria-label={t("common.close")}>
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
