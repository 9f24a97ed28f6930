import { type FormEvent, type ReactNode, useState } from "react";
import { ApiError } from "../lib/api/client";
import type { CustomField, TagRef } from "../lib/api/types";
import { FieldInput } from "../lib/ui/FieldInput";
import { Field, FormError, formValues } from "../lib/ui/form";
import { LabelPicker } from "../lib/ui/LabelPicker";
import { t } from "../lib/i18n/i18n";

/** The editable core of a contact or company page: base fields, labels and custom fields. */
export function RecordEditor(props: {
  base: Array<{ name: string; label: string; value: string; type?: string; multiline?: boolean }>;
  tags: TagRef[];
  kind: "contacts" | "companies";
  fields: CustomField[];
  values: Record<string, unknown>;
  save: (body: Record<string, unknown>) => void;
  error: unknown;
  saving: boolean;
  readOnly: boolean;
  children?: ReactNode;
}) {
  const [dirty, setDirty] = useState(false);
  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    props.save(formValues(e.currentTarget));
    setDirty(false);
  };
  const fieldError = (key: string) => (props.error instanceof ApiError ? props.error.at(`fields.${key}`) : undefined);
  return (
    <div className="record-editor">
      <form className="stack" onSubmit={submit} onChange={() => setDirty(true)} noValidate>
        {props.base.map((f) => (
          <Field key={f.name} label={f.label} name={f.name} error={props.error}>
            {f.multiline ? (
              <textarea name={f.name} defaultValue={f.value} rows={3} disabled={props.readOnly} />
            ) : (
              <input name={f.name} type={f.type ?? "text"} defaultValue={f.value} disabled={props.readOnly} />
            )}
          </Field>
        ))}
        <FormError error={props.error} fields={props.base.map((b) => b.name)} />
        {!props.readOnly && (
          <div className="actions">
            <button type="submit" className="btn btn-primary" disabled={!dirty || props.saving}>
              {props.saving ? t("contacts.saving") : t("contacts.save")}
            </button>
          </div>
        )}
      </form>
      <h3>{t("contacts.labels")}</h3>
      <LabelPicker
        tags={props.tags}
        kind={props.kind}
        disabled={props.readOnly}
        onAdd={(n) => props.save({ add_tags: [n] })}
        onRemove={(n) => props.save({ remove_tags: [n] })}
      />
      {props.fields.length > 0 && <h3>{t("contacts.fields")}</h3>}
      {props.fields.map((f) => (
        <FieldInput
          key={f.id}
          field={f}
          value={props.values[f.key]}
          disabled={props.readOnly}
          error={fieldError(f.key)}
          onSave={(v) => props.save({ fields: { [f.key]: v } })}
        />
      ))}
      {props.children}
    </div>
  );
}
