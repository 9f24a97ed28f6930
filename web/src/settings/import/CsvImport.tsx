/** Settings → Import, CSV: the column mapping step and the dry run's summary. */
import { type MessageKey, t } from "../../lib/i18n/i18n";
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

/** Desk's fields per kind; a required one names the message asking for its column (a sentence per field, as languages inflect it). */
const FIELDS: Record<CsvKind, { field: string; label: MessageKey; required?: MessageKey }[]> = {
  contacts: [
    { field: "email", label: "workflow.csvEmail", required: "workflow.csvPickEmail" },
    { field: "name", label: "workflow.csvName" },
    { field: "phone", label: "workflow.csvPhone" },
    { field: "company", label: "workflow.csvCompany" },
    { field: "notes", label: "workflow.csvNotes" },
    { field: "external_id", label: "workflow.csvExternalId" },
    { field: "locale", label: "workflow.csvLanguage" },
    { field: "created_at", label: "workflow.csvCreatedAt" },
  ],
  companies: [
    { field: "name", label: "workflow.csvName", required: "workflow.csvPickName" },
    { field: "domain", label: "workflow.csvDomain" },
    { field: "notes", label: "workflow.csvNotes" },
    { field: "created_at", label: "workflow.csvCreatedAt" },
  ],
};

/** The required Desk fields (their ids) the mapping leaves without a column. */
export const unmappedRequired = (kind: CsvKind, mapping: CsvMapping): string[] =>
  FIELDS[kind].filter((f) => f.required && !mapping[f.field]).map((f) => f.field);

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
  const fields: { field: string; label: string; required?: MessageKey }[] = [
    ...FIELDS[kind].map((f) => ({ ...f, label: t(f.label) })),
    ...custom.map((f) => ({ field: `custom.${f.key}`, label: f.name })),
  ];
  return (
    <fieldset className="stack" aria-label={t("workflow.csvColumnMapping")}>
      <legend>{t("workflow.csvMatchColumns")}</legend>
      <p className="muted small">{t("workflow.csvMappingIntro", { count: preview.row_count })}</p>
      {fields.map(({ field, label, required }) => {
        const id = `csv-map-${field.replace(/[^a-z0-9_-]/gi, "-")}`;
        const invalid = Boolean(required) && props.missing.includes(field);
        return (
          <div className="field" key={field}>
            <label htmlFor={id}>{required ? t("workflow.csvRequired", { field: label }) : label}</label>
            <select
              id={id}
              value={mapping[field] ?? ""}
              aria-required={required ? true : undefined}
              aria-invalid={invalid || undefined}
              aria-describedby={invalid ? `${id}-error` : undefined}
              onChange={(e) => props.onChange({ ...mapping, [field]: e.target.value })}
            >
              <option value="">{t("workflow.csvNotImported")}</option>
              {preview.headers.map((h) => (
                <option key={h} value={h}>
                  {h}
                </option>
              ))}
            </select>
            {invalid && required && (
              <div className="form-error" id={`${id}-error`}>
                {t(required)}
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
    <section className="stack" aria-label={t("workflow.csvDryRun")} data-testid="csv-dry-run">
      <h2>{t("workflow.csvDryRun")}</h2>
      {result.problems.length > 0 ? (
        <ul className="form-error" role="alert">
          {result.problems.map((p, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: problems have no id and never reorder
            <li key={i}>{p.column ? `${p.column}: ${p.message}` : p.message}</li>
          ))}
        </ul>
      ) : (
        <p role="status">{t("workflow.csvDryRunTotals", totals)}</p>
      )}
      {problems.length > 0 && (
        <ul className="small" aria-label={t("workflow.csvRowsWithProblems")}>
          {problems.map((r) => (
            <li key={r.row}>
              {r.column
                ? t("workflow.csvRowColumnProblem", { row: r.row, column: r.column, message: r.message ?? "" })
                : t("workflow.csvRowProblem", { row: r.row, message: r.message ?? "" })}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
