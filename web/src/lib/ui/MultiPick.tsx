import { useEffect, useRef, useState } from "react";
import { useDismiss } from "./layers";
import { t } from "../i18n/i18n";

/**
 * A compact multi-value filter: a button naming what is picked ("Status: Open, Pending") that
 * opens a checkbox list. An empty pick means "any".
 */
export function MultiPick<T extends string>(props: {
  label: string;
  anyLabel: string;
  options: Array<{ value: T; label: string }>;
  value: T[];
  onChange: (value: T[]) => void;
}) {
  const [open, setOpen] = useState(false);
  const box = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (!open) return;
    const close = (e: MouseEvent) => {
      if (!box.current?.contains(e.target as Node)) setOpen(false);
    };
    document.addEventListener("mousedown", close);
    return () => document.removeEventListener("mousedown", close);
  }, [open]);
  useDismiss(() => {
    // Escape from inside the panel puts the focus back on its button instead of losing it.
    if (box.current?.contains(document.activeElement)) box.current.querySelector("button")?.focus();
    setOpen(false);
  }, open);

  const names = props.options.filter((o) => props.value.includes(o.value)).map((o) => o.label);
  const summary =
    names.length === 0
      ? props.anyLabel
      : names.length <= 2
        ? names.join(", ")
        : t("common.pickedCount", { count: names.length });
  const shown = names.length ? t("common.filterSummary", { label: props.label, summary }) : summary;
  // The accessible name starts with the visible text (WCAG 2.5.3: speech users say what they see).
  return (
    <div className="pop" ref={box}>
      <button
        type="button"
        className={`filter-btn${names.length ? " on" : ""}`}
        aria-label={t("common.filterButtonName", { shown, label: props.label })}
        aria-haspopup="true"
        aria-expanded={open}
        onClick={() => setOpen((v) => !v)}
      >
        {shown}
        <span className="caret" aria-hidden>
          ▾
        </span>
      </button>
      {open && (
        <fieldset className="pop-panel" aria-label={props.label}>
          {props.options.map((o) => (
            <label key={o.value} className="check pop-row">
              <input
                type="checkbox"
                checked={props.value.includes(o.value)}
                onChange={(e) =>
                  props.onChange(
                    e.target.checked ? [...props.value, o.value] : props.value.filter((v) => v !== o.value),
                  )
                }
              />
              {o.label}
            </label>
          ))}
          {props.value.length > 0 && (
            <button type="button" className="btn btn-small btn-ghost" onClick={() => props.onChange([])}>
              {props.anyLabel}
            </button>
          )}
        </fieldset>
      )}
    </div>
  );
}
