import { useState } from "react";
import { downloadCsv } from "../api/download";
import { errorText } from "./states";
import { t } from "../i18n/i18n";

/** "Export CSV": downloads what the list shows (its filters in `path`), saying when it fails. */
export function ExportButton({ path, filename }: { path: string; filename: string }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const run = async () => {
    setBusy(true);
    setError(null);
    try {
      await downloadCsv(path, filename);
    } catch (e) {
      setError(errorText(e));
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <button type="button" className="btn" onClick={run} disabled={busy} aria-busy={busy}>
        {busy ? t("common.exporting") : t("common.exportCsv")}
      </button>
      {error && (
        <span className="form-error small" role="alert">
          {error}
        </span>
      )}
    </>
  );
}
