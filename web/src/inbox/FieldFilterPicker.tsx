import { useEffect, useRef, useState } from "react";
import { useMembers } from "../lib/resources/members";
import type { CustomField } from "../lib/api/types";
import { useDismiss } from "../lib/ui/layers";
import { FIELD_OPERATORS, type FieldCondition, opLabel, takesList, takesNoValue } from "./field-filters";
import { t } from "../lib/i18n/i18n";

/** "between" is the picker's own shorthand for a range: it adds a gte and an lte condition. */
const BETWEEN = "between";

/**
 * "+ Field filter": pick a custom field, an operator valid for its type (SPEC.md's table) and a
 * value in the control that suits the type; answers one or two conditions.
 */
export function FieldFilterPicker({
  fields,
  onAdd,
}: {
  fields: CustomField[];
  onAdd: (conditions: FieldCondition[]) => void;
}) {
  const members = useMembers();
  const [open, setOpen] = useState(false);
  const [key, setKey] = useState("");
  const [op, setOp] = useState("");
  const [value, setValue] = useState("");
  const [upper, setUpper] = useState("");
  const box = useRef<HTMLDivElement>(null);
  const field = fields.find((f) => f.key === key) ?? fields[0];
  const ranged = field && (field.type === "number" || field.type === "date");
  const ops = field ? [...FIELD_OPERATORS[field.type], ...(ranged ? [BETWEEN] : [])] : [];
  const currentOp = ops.includes(op) ? op : (ops[0] ?? "");

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

  if (!fields.length) return null;
  const reset = () => {
    setValue("");
    setUpper("");
  };
  const listed = value.split(",").filter(Boolean);
  const choices: Array<{ id: string; label: string }> =
    field.type === "user"
      ? [
          { id: "me", label: t("inbox.me") },
          ...(members.data ?? []).map((m) => ({ id: m.user.id, label: m.user.name })),
        ]
      : field.options.map((o) => ({ id: o.id, label: o.label }));
  const inputType = field.type === "number" ? "number" : field.type === "date" ? "date" : "text";
  const ready = takesNoValue(currentOp) || (currentOp === BETWEEN ? value !== "" || upper !== "" : value.trim() !== "");

  const add = () => {
    if (!ready) return;
    if (currentOp === BETWEEN) {
      const range: FieldCondition[] = [];
      if (value !== "") range.push({ key: field.key, op: "gte", value });
      if (upper !== "") range.push({ key: field.key, op: "lte", value: upper });
      onAdd(range);
    } else onAdd([{ key: field.key, op: currentOp, value: takesNoValue(currentOp) ? "" : value.trim() }]);
    reset();
    setOpen(false);
  };

  let control: React.ReactNode = null;
  if (takesNoValue(currentOp)) control = null;
  else if (field.type === "checkbox") {
    control = (
      <select aria-label={t("inbox.value")} value={value} onChange={(e) => setValue(e.target.value)}>
        <option value="">—</option>
        <option value="true">{t("inbox.valueYes")}</option>
        <option value="false">{t("inbox.valueNo")}</option>
      </select>
    );
  } else if (field.type === "select" || field.type === "user" || field.type === "multi_select") {
    if (takesList(currentOp) || field.type === "multi_select") {
      control = (
        <fieldset className="pop-list" aria-label={t("inbox.values")}>
          {choices.map((c) => (
            <label key={c.id} className="check pop-row">
              <input
                type="checkbox"
                checked={listed.includes(c.id)}
                onChange={(e) =>
                  setValue((e.target.checked ? [...listed, c.id] : listed.filter((x) => x !== c.id)).join(","))
                }
              />
              {c.label}
            </label>
          ))}
        </fieldset>
      );
    } else {
      control = (
        <select aria-label={t("inbox.value")} value={value} onChange={(e) => setValue(e.target.value)}>
          <option value="">—</option>
          {choices.map((c) => (
            <option key={c.id} value={c.id}>
              {c.label}
            </option>
          ))}
        </select>
      );
    }
  } else if (currentOp === BETWEEN) {
    control = (
      <div className="pop-range">
        <input
          aria-label={t("inbox.rangeFrom")}
          type={inputType}
          value={value}
          onChange={(e) => setValue(e.target.value)}
        />
        <span className="muted">{t("inbox.rangeTo")}</span>
        <input
          aria-label={t("inbox.rangeToLabel")}
          type={inputType}
          value={upper}
          onChange={(e) => setUpper(e.target.value)}
        />
      </div>
    );
  } else {
    control = (
      <input
        aria-label={t("inbox.value")}
        type={inputType}
        step={field.type === "number" ? "any" : undefined}
        value={value}
        onChange={(e) => setValue(e.target.value)}
        onKeyDown={(e) => e.key === "Enter" && add()}
      />
    );
  }

  return (
    <div className="pop" ref={box}>
      <button
        type="button"
        className="filter-btn"
        aria-haspopup="true"
        aria-expanded={open}
        onClick={() => setOpen((v) => !v)}
      >
        {t("inbox.addFieldFilter")}
      </button>
      {open && (
        <fieldset className="pop-panel pop-form" aria-label={t("inbox.fieldFilter")}>
          <select
            aria-label={t("inbox.field")}
            value={field.key}
            onChange={(e) => {
              setKey(e.target.value);
              setOp("");
              reset();
            }}
          >
            {fields.map((f) => (
              <option key={f.id} value={f.key}>
                {f.name}
              </option>
            ))}
          </select>
          <select
            aria-label={t("inbox.operatorLabel")}
            value={currentOp}
            onChange={(e) => {
              setOp(e.target.value);
              if (takesList(e.target.value) !== takesList(currentOp)) reset();
            }}
          >
            {ops.map((o) => (
              <option key={o} value={o}>
                {o === BETWEEN ? t("inbox.opBetween") : opLabel(o)}
              </option>
            ))}
          </select>
          {control}
          <button type="button" className="btn btn-small btn-primary" disabled={!ready} onClick={add}>
            {t("inbox.addFilter")}
          </button>
        </fieldset>
      )}
    </div>
  );
}
