/**
 * CSV for exports: RFC 4180 (comma separated, CRLF line ends, a field holding a comma, a quote, CR
 * or LF is quoted with its quotes doubled), UTF-8 with a byte order mark so Excel reads non-ASCII
 * names as UTF-8 (without it Excel on Windows opens the file in the local ANSI code page).
 */

/** Excel needs it to read UTF-8; most parsers skip it (Python `utf-8-sig`, pandas, csv-parse `bom`). */
export const CSV_BOM = "\uFEFF";

/**
 * A spreadsheet runs a cell starting with = + - @ (or a tab or CR before one) as a formula, so a
 * customer's text could become a formula on an agent's machine (OWASP "CSV injection"); such a cell
 * is prefixed with ' and shows as text.
 */
const FORMULA_START = /^[=+\-@\t\r]/;
const NEEDS_QUOTES = /[",\r\n]/;

/** One field: null and undefined are empty, arrays join with "; ", other values as text. */
export function csvCell(value: unknown): string {
  if (value === null || value === undefined) return "";
  let text: string;
  if (Array.isArray(value)) text = value.map((v) => (v === null || v === undefined ? "" : String(v))).join("; ");
  else if (typeof value === "object") text = JSON.stringify(value);
  else text = String(value);
  if (FORMULA_START.test(text)) text = `'${text}`;
  return NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** One record, CRLF-terminated. */
export const csvLine = (cells: readonly unknown[]): string => `${cells.map(csvCell).join(",")}\r\n`;

/** One page of records and where the next starts (null: that was the last page). */
export type CsvPage<C> = { rows: unknown[][]; next: C | null };

/**
 * A CSV body read page by page as the client takes it: `readPage` runs only when the stream's
 * queue is empty (one page buffered at most), so memory stays flat however many records there are
 * and a slow client slows the reads instead of filling memory. Cancelling stops the reads.
 * `readPage` gets null for the first page, then each page's `next`; it may answer later (a page
 * read on the read pool), and a page that arrives after a cancel is dropped.
 */
export function csvStream<C>(
  header: readonly string[],
  readPage: (cursor: C | null) => CsvPage<C> | Promise<CsvPage<C>>,
): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let cursor: C | null = null;
  let started = false;
  let done = false;
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        if (done) return;
        let text = "";
        if (!started) {
          started = true;
          text = CSV_BOM + csvLine(header);
        }
        const page = await readPage(cursor);
        if (done) return;
        for (const row of page.rows) text += csvLine(row);
        cursor = page.next;
        if (text !== "") controller.enqueue(encoder.encode(text));
        if (page.next === null) {
          done = true;
          controller.close();
        }
      },
      cancel() {
        done = true;
      },
    },
    { highWaterMark: 1, size: () => 1 },
  );
}

/** The headers of a CSV download named `filename` (ASCII, chosen by the route). */
export const csvHeaders = (filename: string): Record<string, string> => ({
  "content-type": "text/csv; charset=utf-8",
  "content-disposition": `attachment; filename="${filename}"`,
  "cache-control": "no-store",
  "x-content-type-options": "nosniff",
});
