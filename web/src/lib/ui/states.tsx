import type { ReactNode } from "react";
import { ApiError } from "../api/client";
import { t } from "../i18n/i18n";

export function Loading({ label = t("common.loading") }: { label?: string }) {
  return (
    <div className="state state-loading" role="status" aria-live="polite">
      <span className="spinner" aria-hidden /> {label}
    </div>
  );
}

export function Empty({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <div className="state state-empty">
      <div className="state-title">{title}</div>
      {children && <div className="state-body">{children}</div>}
    </div>
  );
}

export function errorText(error: unknown): string {
  if (error instanceof ApiError) return error.detail;
  if (error instanceof Error) return error.message;
  return t("common.unexpectedError");
}

/** A failed request: SPEC's `detail`, plus unlocated field errors, and a retry when possible. */
export function ErrorBox({ error, retry }: { error: unknown; retry?: () => void }) {
  if (!error) return null;
  const loose = error instanceof ApiError ? error.errors.filter((e) => !e.location.startsWith("body.")) : [];
  return (
    <div className="state state-error" role="alert">
      <div>{errorText(error)}</div>
      {loose.map((e) => (
        <div key={e.location} className="muted small">
          {e.location}: {e.message}
        </div>
      ))}
      {retry && (
        <button type="button" className="btn btn-small" onClick={retry}>
          {t("common.retry")}
        </button>
      )}
    </div>
  );
}
