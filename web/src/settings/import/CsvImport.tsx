/** Settings → Import, CSV: the column mapping step and the dry run's summary. */
import { useCustomFields } from "../../lib/resources/custom-fields";

export type CsvKind = "contacts" | "companies";
export type CsvMapping = Record<string, string>;
export type CsvDryRun = {
  kind: CsvKind;
  headers: string[];
  sample_rows: string[][];
  suggested_mapping: CsvMapping;
  mapping: CsvMapping;
  row_count: number;
  totals: { create: number; update: number; skip: number; error: number };
  problems: { column: string | null; message: string }[];
  rows: {
    row: number;
    action: "create" | "update" | "skip" | "error";
    column: string | null;
    message: string | null;
  }[];
};

const FIELDS: Record<CsvKind, { field: string; label: string; required?: boolean }[]> = {
  contacts: [
    { field: "email", label: "Email", required: true },
    { field: "name", label: "Name" },
    { field: "phone", label: "Phone" },
    { field: "company", label: "Company" },
    { field: "notes", label: "Notes" },
    { field: "external_id", label: "External ID" },
    { field: "created_at", label: "Created at" },
  ],
  companies: [
    { field: "name", label: "Name", required: true },
    { field: "domain", label: "Domain" },
    { field: "notes", label: "Notes" },
    { field: "created_at", label: "Created at" },
  ],
};

/** The required Desk fields the mapping leaves without a column. */
export const unmappedRequired = (kind: CsvKind, mapping: CsvMapping): string[] =>
  FIELDS[kind].filter((f) => f.required && !mapping[f.field]).map((f) => f.label);

/** Each Desk field with a select of the file's headers (the suggestion preselected). */
export function CsvMappingStep(props: {
  kind: CsvKind;
  preview: CsvDryRun;
  mapping: CsvMapping;
  missing: string[];
  onChange: (mapping: CsvMapping) => void;
}) {
  const { kind, preview, mapping } = props;
  const custom = useCustomFields(kind === "contacts" ? "contact" : "company").data ?? [];
  const fields = [
    ...FIELDS[kind],
    ...custom.map((f) => ({ field: `custom.${f.key}`, label: f.name, required: false })),
  ];
  return (
    <fieldset className="stack" aria-label="Column mapping">
      <legend>Match the columns</legend>
      <p className="muted small">
        {preview.row_count} {preview.row_count === 1 ? "row" : "rows"}. Pick the column that holds each field; columns
        left out are not imported.
      </p>
      {fields.map(({ field, label, required }) => {
        const id = `csv-map-${field.replace(/[^a-z0-9_-]/gi, "-")}`;
        const invalid = required && props.missing.includes(label);
        return (
          <div className="field" key={field}>
            <label htmlFor={id}>
              {label}
              {required ? " (required)" : ""}
            </label>
            <select
              id={id}
              value={mapping[field] ?? ""}
              aria-required={required || undefined}
              aria-invalid={invalid || undefined}
              aria-describedby={invalid ? `${id}-error` : undefined}
              onChange={(e) => props.onChange({ ...mapping, [field]: e.target.value })}
            >
              <option value="">Not imported</option>
              {preview.headers.map((h) => (
                <option key={h} value={h}>
                  {h}
                </option>
              ))}
            </select>
            {invalid && (
              <div className="form-error" id={`${id}-error`}>
                Pick the column that holds {label.toLowerCase()}.
              </div>
            )}
          </div>
        );
      })}
    </fieldset>
  );
}

const FIRST_ERRORS = 10;

/** What the import would do: created, updated, skipped and refused rows, the first problems listed. */
export function CsvDryRunSummary({ result }: { result: CsvDryRun }) {
  const { totals } = result;
  const problems = result.rows.filter((r) => r.action === "error" || r.action === "skip").slice(0, FIRST_ERRORS);
  return (
    <section className="stack" aria-label="Dry run" data-testid="csv-dry-run">
      <h2>Dry run</h2>
      {result.problems.length > 0 ? (
        <ul className="form-error" role="alert">
          {result.problems.map((p, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: problems have no id and never reorder
            <li key={i}>{p.column ? `${p.column}: ${p.message}` : p.message}</li>
          ))}
        </ul>
      ) : (
        <p role="status">
          {totals.create} to create · {totals.update} to update · {totals.skip} skipped · {totals.error} with errors.
          Nothing has been written yet.
        </p>
      )}
      {problems.length > 0 && (
        <ul className="small" aria-label="Rows with problems">
          {problems.map((r) => (
            <li key={r.row}>
              Row {r.row}
              {r.column ? ` (${r.column})` : ""}: {r.message}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
