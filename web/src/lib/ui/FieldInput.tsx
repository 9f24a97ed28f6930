import { useEffect, useState } from "react";
import { useMembers } from "../resources/members";
import type { CustomField } from "../api/types";
import { t } from "../i18n/i18n";

/**
 * One custom field's editor for every type. Text-like inputs save on blur or Enter; pickers save
 * on change. `onSave(null)` clears the value.
 */
export function FieldInput({
  field,
  value,
  onSave,
  disabled,
  error,
}: {
  field: CustomField;
  value: unknown;
  onSave: (value: unknown) => void;
  disabled?: boolean;
  error?: string;
}) {
  const members = useMembers();
  const [text, setText] = useState(value == null ? "" : String(value));
  useEffect(() => setText(value == null ? "" : String(value)), [value]);
  const id = `field-${field.key}`;
  const commit = () => {
    const current = value == null ? "" : String(value);
    if (text === current) return;
    if (text.trim() === "") return onSave(null);
    onSave(field.type === "number" ? Number(text) : text);
  };
  const textProps = {
    id,
    disabled,
    value: text,
    onChange: (e: React.ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) => setText(e.target.value),
    onBlur: commit,
    onKeyDown: (e: React.KeyboardEvent) => {
      if (e.key === "Enter" && field.type !== "long_text") (e.target as HTMLElement).blur();
    },
  };
  let control: React.ReactNode;
  switch (field.type) {
    case "long_text":
      control = <textarea rows={3} {...textProps} />;
      break;
    case "number":
      control = <input type="number" step="any" {...textProps} />;
      break;
    case "date":
      control = (
        <input type="date" id={id} disabled={disabled} value={text} onChange={(e) => onSave(e.target.value || null)} />
      );
      break;
    case "url":
    case "email":
    case "text":
      control = <input type={field.type === "text" ? "text" : field.type} {...textProps} />;
      break;
    case "checkbox":
      control = (
        <input
          type="checkbox"
          id={id}
          disabled={disabled}
          checked={value === true}
          onChange={(e) => onSave(e.target.checked)}
        />
      );
      break;
    case "select":
      control = (
        <select
          id={id}
          disabled={disabled}
          value={String(value ?? "")}
          onChange={(e) => onSave(e.target.value || null)}
        >
          <option value="">—</option>
          {field.options.map((o) => (
            <option key={o.id} value={o.id}>
              {o.label}
            </option>
          ))}
        </select>
      );
      break;
    case "multi_select": {
      const chosen = Array.isArray(value) ? (value as string[]) : [];
      control = (
        <div className="multi" id={id}>
          {field.options.map((o) => (
            <label key={o.id} className="check">
              <input
                type="checkbox"
                disabled={disabled}
                checked={chosen.includes(o.id)}
                onChange={(e) => onSave(e.target.checked ? [...chosen, o.id] : chosen.filter((c) => c !== o.id))}
              />
              {o.label}
            </label>
          ))}
        </div>
      );
      break;
    }
    case "user":
      control = (
        <select
          id={id}
          disabled={disabled}
          value={String(value ?? "")}
          onChange={(e) => onSave(e.target.value || null)}
        >
          <option value="">—</option>
          {members.data?.map((m) => (
            <option key={m.user.id} value={m.user.id}>
              {m.user.name}
            </option>
          ))}
        </select>
      );
      break;
  }
  return (
    <div className={`side-field${error ? " field-invalid" : ""}`}>
      <label htmlFor={id} className="side-label">
        {field.name}
        {field.required_on_solve && (
          <span className="req" title={t("common.requiredToSolve")}>
            *
          </span>
        )}
      </label>
      {control}
      {error && (
        <span className="field-error" role="alert">
          {error}
        </span>
      )}
    </div>
  );
}
