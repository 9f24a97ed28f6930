import type { ReactNode } from "react";
import { ApiError } from "../api/client";
import { t } from "../i18n/i18n";

/** A labelled control with its API field error (errors[].location `body.<name>`) shown beneath. */
export function Field({
  label,
  name,
  error,
  hint,
  children,
}: {
  label: string;
  name?: string;
  error?: unknown;
  hint?: ReactNode;
  children: ReactNode;
}) {
  const message = name && error instanceof ApiError ? error.at(name) : undefined;
  return (
    <label className={`field${message ? " field-invalid" : ""}`}>
      <span className="field-label">{label}</span>
      {children}
      {message ? (
        <span className="field-error" role="alert">
          {message}
        </span>
      ) : hint ? (
        <span className="field-hint">{hint}</span>
      ) : null}
    </label>
  );
}

/** The form-level error line: `detail` unless every error is already shown beside its field. */
export function FormError({ error, fields = [] }: { error: unknown; fields?: string[] }) {
  if (!error) return null;
  if (error instanceof ApiError) {
    const unplaced = error.errors.filter((e) => !fields.some((f) => e.location === `body.${f}`));
    return (
      <div className="form-error" role="alert">
        {error.detail}
        {unplaced.map((e) => (
          <div key={e.location} className="small">
            {e.location.replace(/^body\./, "")}: {e.message}
          </div>
        ))}
      </div>
    );
  }
  return (
    <div className="form-error" role="alert">
      {error instanceof Error ? error.message : t("common.unexpectedError")}
    </div>
  );
}

/** Reads a form's named inputs as strings. */
export function formValues(form: HTMLFormElement): Record<string, string> {
  const values: Record<string, string> = {};
  new FormData(form).forEach((value, key) => {
    if (typeof value === "string") values[key] = value;
  });
  return values;
}
