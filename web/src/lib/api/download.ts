import { api } from "./client";

/**
 * Downloads a CSV export (`path` under /v1, with the session's credentials) as `filename`. The body
 * comes through `api` (a refreshed token, problem bodies as errors); reading it decodes the BOM
 * away, so it is put back for spreadsheets.
 */
export async function downloadCsv(path: string, filename: string): Promise<void> {
  const text = await api<string>(path, { headers: { accept: "text/csv" } });
  const url = URL.createObjectURL(new Blob(["\uFEFF", String(text ?? "")], { type: "text/csv;charset=utf-8" }));
  try {
    const link = document.createElement("a");
    link.href = url;
    link.download = filename;
    link.hidden = true;
    document.body.append(link);
    link.click();
    link.remove();
  } finally {
    // The click has handed the blob to the browser's download by now; a tick later frees it.
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  }
}
