import { first } from "../db/store";
import { systemContext } from "../auth/context";
import {
  createCompany,
  emailTaken,
  findOrCreateContactByEmail,
  createContact,
  liveCompanyByDomainOrName,
  liveContactByExternalId,
  updateCompany,
  updateContact,
} from "../contacts/contacts.public";
import { fieldDefinitions } from "../custom-fields/custom-fields.public";
import { transact } from "../db/tx";
import type { Deps } from "../deps";
import { withoutReactions } from "../events/consumers";
import { DeskError } from "../lib/errors";
import { and, eq, inArray } from "drizzle-orm";
import type { Queryable, Tx } from "../db/database";
import { mappingOf, saveMapping, type MappingScope } from "./imports.mappings";
import { CSV_MAX_ROWS, type CsvDryRunJson, type CsvKind, type CsvMapping } from "./imports.schemas";
import { emitImportUpdated } from "./imports.present";
import { imports, type ImportError, type ImportRow } from "./imports.table";

const MAX_ERRORS = 100;
const EMAIL = /^[^\s@<>(),;:"]+@[^\s@<>(),;:"]+\.[^\s@<>(),;:"]+$/;

/** Where an uploaded CSV waits for its job in the desk's store, removed when the run ends. */
export const csvKeyOf = (id: string): string => `imports/${id}.csv`;

/**
 * RFC 4180: fields separated by commas, rows by CRLF or LF, quoted fields may hold commas, quotes
 * (doubled) and newlines; a leading UTF-8 BOM is dropped. Answers at most `maxRows + 1` rows (the
 * caller refuses more) and the line each row starts on.
 */
export function parseCsv(
  input: string,
  maxRows: number,
): { rows: string[][]; lines: number[] } | { error: string; line: number } {
  const text = input.charCodeAt(0) === 0xfeff ? input.slice(1) : input;
  const rows: string[][] = [];
  const lines: number[] = [];
  let row: string[] = [];
  let field = "";
  let quoted = false;
  let line = 1;
  let rowLine = 1;
  let i = 0;
  const endRow = () => {
    row.push(field);
    field = "";
    if (!(row.length === 1 && row[0] === "")) {
      rows.push(row);
      lines.push(rowLine);
    }
    row = [];
  };
  while (i < text.length) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"') {
        if (text[i + 1] === '"') {
          field += '"';
          i += 2;
          continue;
        }
        quoted = false;
      } else {
        if (c === "\n") line++;
        field += c;
      }
      i++;
      continue;
    }
    if (c === '"' && field === "") quoted = true;
    else if (c === ",") {
      row.push(field);
      field = "";
    } else if (c === "\n" || c === "\r") {
      if (c === "\r" && text[i + 1] === "\n") i++;
      endRow();
      line++;
      rowLine = line;
      if (rows.length > maxRows) return { rows, lines };
    } else field += c;
    i++;
  }
  if (quoted) return { error: "a quoted field is never closed", line: rowLine };
  if (field !== "" || row.length) endRow();
  return { rows, lines };
}

/** Desk's fields of each kind; `custom.<key>` adds a custom field of the record. */
const CSV_FIELDS: Record<CsvKind, readonly string[]> = {
  contacts: ["email", "name", "phone", "company", "notes", "external_id", "locale", "created_at"],
  companies: ["name", "domain", "notes", "created_at"],
};
const CUSTOM_FIELD = /^custom\.[a-z0-9_]{1,64}$/;
const MAX_LENGTH: Record<string, number> = {
  name: 200,
  phone: 50,
  notes: 10_000,
  domain: 253,
  company: 200,
  external_id: 255,
  locale: 35,
};
/** Other names a spreadsheet gives Desk's fields (compared without case, spaces or punctuation). */
const SYNONYMS: Record<string, string[]> = {
  email: ["email", "emailaddress", "mail", "e-mail"],
  name: ["name", "fullname", "contactname", "companyname"],
  phone: ["phone", "phonenumber", "telephone", "tel", "mobile"],
  company: ["company", "organisation", "organization", "org", "companyname"],
  notes: ["notes", "note", "comment", "comments", "description"],
  external_id: ["externalid", "id", "customerid"],
  domain: ["domain", "website", "url", "web"],
  locale: ["locale", "language", "lang", "languagecode"],
  created_at: ["createdat", "created", "createddate", "creationdate"],
};
const squash = (s: string) => s.toLowerCase().replace(/[^a-z0-9]/g, "");

/** Each Desk field with the header that most likely holds it (a field with none is left out). */
function suggestMapping(kind: CsvKind, headers: string[]): CsvMapping {
  const out: CsvMapping = {};
  const used = new Set<string>();
  for (const field of CSV_FIELDS[kind]) {
    const names = (SYNONYMS[field] ?? [field]).map(squash);
    const header = headers.find((h) => !used.has(h) && names.includes(squash(h)));
    if (header !== undefined) {
      out[field] = header;
      used.add(header);
    }
  }
  for (const h of headers) if (CUSTOM_FIELD.test(h.trim().toLowerCase())) out[h.trim().toLowerCase()] = h;
  return out;
}

type Problem = { column: string | null; message: string };
/** Desk field → its column's index and header. */
type Columns = Map<string, { index: number; header: string }>;

/** The columns each Desk field reads: the given mapping, else the headers named as Desk's fields. */
export function resolveColumns(
  kind: CsvKind,
  headers: string[],
  mapping: CsvMapping | undefined,
): { columns: Columns; problems: Problem[] } {
  const columns: Columns = new Map();
  const problems: Problem[] = [];
  const known = (field: string) => CSV_FIELDS[kind].includes(field) || CUSTOM_FIELD.test(field);
  if (mapping) {
    for (const [field, header] of Object.entries(mapping)) {
      if (header === "") continue;
      if (!known(field)) problems.push({ column: null, message: `${field.slice(0, 100)} is not a Desk field.` });
      const index = headers.indexOf(header);
      if (index < 0) problems.push({ column: header.slice(0, 100), message: "No column has this header." });
      else if (known(field)) columns.set(field, { index, header });
    }
  } else {
    const unknown: string[] = [];
    headers.forEach((h, index) => {
      const field = h.trim().toLowerCase();
      if (known(field)) columns.set(field, { index, header: h });
      else unknown.push(h.slice(0, 100));
    });
    if (unknown.length || !headers.length)
      problems.push({
        column: null,
        message: `Unknown columns: ${unknown.join(", ") || "(none)"}. Known: ${CSV_FIELDS[kind].join(", ")}; map them to Desk's fields.`,
      });
  }
  if (kind === "companies" && !columns.has("name")) problems.push({ column: null, message: "Map a column to name." });
  if (kind === "contacts" && !columns.has("email") && !columns.has("external_id"))
    problems.push({ column: null, message: "Map a column to email (or external_id)." });
  return { columns, problems };
}

/** One data row checked: ready to write, a repeat of an earlier row (skipped), or refused. */
type Checked =
  | { line: number; action: "import"; sourceId: string; values: Record<string, string> }
  | { line: number; action: "skip" | "error"; column: string | null; message: string };

function checkRow(kind: CsvKind, cells: string[], line: number, columns: Columns, width: number): Checked {
  if (cells.length !== width)
    return { line, action: "error", column: null, message: `Has ${cells.length} fields; the header has ${width}.` };
  const values: Record<string, string> = {};
  for (const [field, { index }] of columns) values[field] = cells[index]!.trim();
  const header = (field: string) => columns.get(field)?.header ?? null;
  for (const [field, max] of Object.entries(MAX_LENGTH))
    if ((values[field]?.length ?? 0) > max)
      return { line, action: "error", column: header(field), message: `Longer than ${max} characters.` };
  if (values.created_at) {
    // The source's creation time, kept when the row creates its record (an update never moves it).
    const ms = Date.parse(values.created_at);
    if (!Number.isFinite(ms))
      return { line, action: "error", column: header("created_at"), message: "created_at is not a date (ISO 8601)." };
    values.created_at = new Date(ms).toISOString();
  }
  if (kind === "companies") {
    if (!values.name) return { line, action: "error", column: header("name"), message: "Has no name." };
    return { line, action: "import", sourceId: values.name.toLowerCase(), values };
  }
  const email = (values.email ?? "").toLowerCase();
  if (email && !EMAIL.test(email))
    return {
      line,
      action: "error",
      column: header("email"),
      message: `"${email.slice(0, 100)}" is not an email address.`,
    };
  if (!email && !values.external_id)
    return { line, action: "error", column: header("email"), message: "Has neither email nor external_id." };
  if (values.email !== undefined) values.email = email;
  return { line, action: "import", sourceId: email || `external:${values.external_id}`, values };
}

/** Every data row checked; a row repeating an earlier one's email (or name) is skipped: the first wins. */
function checkRows(kind: CsvKind, rows: string[][], lines: number[], columns: Columns): Checked[] {
  const seen = new Map<string, number>();
  const width = rows[0]?.length ?? 0;
  const out: Checked[] = [];
  for (let index = 1; index < rows.length; index++) {
    const checked = checkRow(kind, rows[index]!, lines[index]!, columns, width);
    if (checked.action === "import") {
      const first = seen.get(checked.sourceId);
      if (first !== undefined) {
        const column = columns.get(kind === "contacts" ? "email" : "name")?.header ?? null;
        out.push({ line: checked.line, action: "skip", column, message: `Repeats row ${first}; skipped.` });
        continue;
      }
      seen.set(checked.sourceId, checked.line);
    }
    out.push(checked);
  }
  return out;
}

/** Whether a checked row would update a record the workspace has (else it creates one). */
async function existing(
  db: Queryable,
  scope: MappingScope,
  kind: CsvKind,
  item: { sourceId: string; values: Record<string, string> },
) {
  const v = item.values;
  if (kind === "companies")
    return Boolean(
      (await mappingOf(db, scope, "company", item.sourceId)) ??
        (await liveCompanyByDomainOrName(db, scope.workspaceId, { domain: v.domain || null, name: v.name! })),
    );
  if (await mappingOf(db, scope, "contact", item.sourceId)) return true;
  if (v.email) return await emailTaken(db, scope.workspaceId, v.email, null);
  return v.external_id ? (await liveContactByExternalId(db, scope.workspaceId, v.external_id)) !== undefined : false;
}

const DRY_RUN_ROWS = 1000;
const SAMPLE_ROWS = 5;

/** A dry run: what each row would do, with nothing written (reads only, no transaction). */
export async function csvDryRun(
  db: Queryable,
  workspaceId: string,
  kind: CsvKind,
  text: string,
  mapping: CsvMapping | undefined,
): Promise<CsvDryRunJson> {
  const parsed = parseCsv(text, CSV_MAX_ROWS + 1);
  const empty = { create: 0, update: 0, skip: 0, error: 0 };
  const base = { kind, headers: [], sample_rows: [], suggested_mapping: {}, mapping: {}, row_count: 0, rows: [] };
  if ("error" in parsed)
    return { ...base, totals: empty, problems: [{ column: null, message: `Row ${parsed.line}: ${parsed.error}.` }] };
  const headers = parsed.rows[0] ?? [];
  const { columns, problems } = resolveColumns(kind, headers, mapping);
  if (parsed.rows.length > CSV_MAX_ROWS + 1)
    problems.push({ column: null, message: `More than ${CSV_MAX_ROWS} rows.` });
  const scope: MappingScope = { workspaceId, source: "csv", account: kind };
  const totals = { ...empty };
  const rows: CsvDryRunJson["rows"] = [];
  for (const checked of problems.length ? [] : checkRows(kind, parsed.rows, parsed.lines, columns)) {
    const row =
      checked.action === "import"
        ? {
            row: checked.line,
            action: (await existing(db, scope, kind, checked)) ? "update" : "create",
            column: null,
            message: null,
          }
        : { row: checked.line, action: checked.action, column: checked.column, message: checked.message };
    totals[row.action as keyof typeof totals]++;
    if (rows.length < DRY_RUN_ROWS) rows.push(row as CsvDryRunJson["rows"][number]);
  }
  return {
    kind,
    headers,
    sample_rows: parsed.rows.slice(1, 1 + SAMPLE_ROWS),
    suggested_mapping: suggestMapping(kind, headers),
    mapping: Object.fromEntries([...columns].map(([field, c]) => [field, c.header])),
    row_count: Math.max(0, parsed.rows.length - 1),
    totals,
    problems,
    rows,
  };
}

/** Ends the run, unless it was canceled meanwhile (only a queued or running import changes). */
async function endCsvRun(
  deps: Deps,
  row: ImportRow,
  status: "succeeded" | "failed",
  set: Partial<typeof imports.$inferInsert>,
): Promise<void> {
  const now = deps.clock.now().toISOString();
  await transact(deps.db, async (tx) => {
    const done = first(
      await tx
        .update(imports)
        .set({
          ...set,
          status,
          phase: "done",
          finishedAt: now,
          startedAt: row.startedAt ?? now,
          leaseUntil: null,
          optionsSealed: null,
          updatedAt: now,
        })
        .where(and(eq(imports.id, row.id), inArray(imports.status, ["queued", "running"])))
        .returning(),
    );
    if (done) await emitImportUpdated(tx, done);
  });
}

const TRUE = ["true", "yes", "y", "1", "x"];
const FALSE = ["false", "no", "n", "0"];

/** A cell as the value its field's type takes (a cell that fits none is passed on, and refused at its column). */
function cellValue(type: string | undefined, cell: string): unknown {
  if (type === "number") return cell.trim() !== "" && Number.isFinite(Number(cell)) ? Number(cell) : cell;
  if (type === "checkbox")
    return TRUE.includes(cell.toLowerCase()) ? true : FALSE.includes(cell.toLowerCase()) ? false : cell;
  if (type === "multi_select")
    return cell
      .split(/[;,]/)
      .map((c) => c.trim())
      .filter(Boolean);
  return cell;
}

/** `custom.<key>` cells as the record's custom fields (an empty cell leaves the field as it is). */
async function customFields(tx: Tx, workspaceId: string, entity: "contact" | "company", v: Record<string, string>) {
  const cells = Object.entries(v).filter(([k, value]) => k.startsWith("custom.") && value !== "");
  if (!cells.length) return {};
  const types = new Map((await fieldDefinitions(tx, workspaceId, entity)).map((d) => [d.key, d.type as string]));
  const fields = Object.fromEntries(
    cells.map(([k, value]) => {
      const key = k.slice("custom.".length);
      return [key, cellValue(types.get(key), value)];
    }),
  );
  return { fields };
}

type RowWrite = { deps: Deps; ctx: ReturnType<typeof systemContext>; scope: MappingScope };

/** Writes one company row; answers how many companies it made or changed. */
async function writeCompanyRow(tx: Tx, w: RowWrite, item: { sourceId: string; values: Record<string, string> }) {
  const v = item.values;
  const input = {
    name: v.name!,
    ...(v.domain !== undefined ? { domain: v.domain || null } : {}),
    ...(v.notes !== undefined ? { notes: v.notes } : {}),
    ...(await customFields(tx, w.scope.workspaceId, "company", v)),
  };
  const found =
    (await mappingOf(tx, w.scope, "company", item.sourceId))?.deskId ??
    (await liveCompanyByDomainOrName(tx, w.scope.workspaceId, { domain: v.domain || null, name: v.name! }))?.id;
  const id = found
    ? (await updateCompany(w.ctx, found, input, w.deps)).id
    : (await createCompany(w.ctx, input, w.deps, { createdAt: v.created_at || undefined })).id;
  await saveMapping(tx, w.scope, { kind: "company", sourceId: item.sourceId, deskId: id, sourceUpdatedAt: null });
  return 1;
}

/** Writes one contact row (and its company when the workspace has none by that name); answers companies made. */
async function writeContactRow(tx: Tx, w: RowWrite, item: { sourceId: string; values: Record<string, string> }) {
  const v = item.values;
  let companyId: string | undefined;
  let made = 0;
  if (v.company) {
    const companies: MappingScope = { ...w.scope, account: "companies" };
    const key = v.company.toLowerCase();
    companyId =
      (await mappingOf(tx, companies, "company", key))?.deskId ??
      (await liveCompanyByDomainOrName(tx, w.scope.workspaceId, { domain: null, name: v.company }))?.id;
    if (!companyId) {
      companyId = (await createCompany(w.ctx, { name: v.company }, w.deps)).id;
      made++;
    }
    await saveMapping(tx, companies, { kind: "company", sourceId: key, deskId: companyId, sourceUpdatedAt: null });
  }
  const fields = {
    ...(v.name !== undefined ? { name: v.name } : {}),
    ...(v.phone !== undefined ? { phone: v.phone } : {}),
    ...(v.notes !== undefined ? { notes: v.notes } : {}),
    ...(companyId ? { company_id: companyId } : {}),
    ...(v.external_id ? { external_id: v.external_id } : {}),
    ...(v.locale ? { locale: v.locale } : {}),
    ...(await customFields(tx, w.scope.workspaceId, "contact", v)),
  };
  let id = (await mappingOf(tx, w.scope, "contact", item.sourceId))?.deskId;
  const createdAt = v.created_at || undefined;
  if (!id && v.email)
    id = (
      await findOrCreateContactByEmail(tx, w.ctx, { email: v.email, name: v.name ?? null, createdAt }, w.deps.ports)
    ).id;
  if (id) await updateContact(w.ctx, id, fields, w.deps);
  else id = (await createContact(w.ctx, fields, w.deps, { createdAt })).id;
  await saveMapping(tx, w.scope, { kind: "contact", sourceId: item.sourceId, deskId: id, sourceUpdatedAt: null });
  return made;
}

/** A write refusal in the row's terms: the header of the field it names, and what was wrong. */
function rowRefusal(error: unknown, columns: Columns): Problem {
  if (!(error instanceof DeskError)) return { column: null, message: "could not be written" };
  const first = error.errors?.[0];
  const field = first?.location
    .replace(/^body\./, "")
    .replace(/^fields\./, "custom.")
    .replace(/^company_id$/, "company");
  const column = (field && columns.get(field)?.header) ?? null;
  return { column, message: first?.message ?? error.detail };
}

const asError = (line: number, p: Problem): ImportError => ({
  record: `row ${line}`,
  message: p.column ? `${p.column}: ${p.message}` : p.message,
});

const CHECKPOINT_ROWS = 500;
const LEASE_MS = 60_000;

/**
 * Every few hundred rows: the progress shown live and the lease renewed, then the server may answer
 * other requests before the next slice; false once the import was canceled (the run stops there).
 */
async function checkpoint(
  deps: Deps,
  id: string,
  set: { phase: string; done: number; total: number; counts: ImportRow["counts"]; errors: ImportError[] },
): Promise<boolean> {
  const now = deps.clock.now();
  const running = await transact(deps.db, async (tx) => {
    const updated = first(
      await tx
        .update(imports)
        .set({
          ...set,
          counts: { ...set.counts },
          errors: [...set.errors],
          leaseUntil: new Date(now.getTime() + LEASE_MS).toISOString(),
          updatedAt: now.toISOString(),
        })
        .where(and(eq(imports.id, id), inArray(imports.status, ["queued", "running"])))
        .returning(),
    );
    if (updated) await emitImportUpdated(tx, updated);
    return updated !== undefined;
  });
  await Bun.sleep(0);
  return running;
}

/** The uploaded file's text, or null when it is gone or cannot be read. */
async function csvText(deps: Deps, key: string): Promise<string | null> {
  try {
    return (await (await deps.blobs.get(key))?.text()) ?? null;
  } catch {
    return null;
  }
}

/** The CSV run: every row checked, each valid row written in its own transaction (all of it or none of it). */
export async function runCsvImport(deps: Deps, row: ImportRow): Promise<void> {
  const key = csvKeyOf(row.id);
  const kind = row.account as CsvKind;
  // The file stays until the run ends: a run cut short is run again from it (the mappings make it idempotent).
  const end = async (status: "succeeded" | "failed", set: Partial<typeof imports.$inferInsert>) => {
    await deps.blobs.delete(key);
    await endCsvRun(deps, row, status, set);
  };
  const text = await csvText(deps, key);
  if (text === null) return end("failed", { errors: [{ record: "file", message: "The uploaded file is gone." }] });
  const parsed = parseCsv(text, CSV_MAX_ROWS + 1);
  if ("error" in parsed) return end("failed", { errors: [{ record: `row ${parsed.line}`, message: parsed.error }] });
  const options = row.optionsSealed
    ? (JSON.parse(deps.secrets.open(row.optionsSealed)) as { mapping?: CsvMapping })
    : {};
  const { columns, problems } = resolveColumns(kind, parsed.rows[0] ?? [], options.mapping);
  if (parsed.rows.length > CSV_MAX_ROWS + 1)
    problems.unshift({ column: null, message: `More than ${CSV_MAX_ROWS} rows.` });
  if (problems.length)
    return end("failed", {
      errors: problems.map((p) => asError(1, p)),
      counts: { ...row.counts, failed: problems.length },
    });
  const checked = checkRows(kind, parsed.rows, parsed.lines, columns);
  const counts = { ...row.counts };
  const errors: ImportError[] = [];
  const report = (line: number, p: Problem) => {
    if (errors.length < MAX_ERRORS) errors.push(asError(line, p));
  };
  const w: RowWrite = {
    deps,
    ctx: systemContext(row.workspaceId, `import:${row.id}`),
    scope: { workspaceId: row.workspaceId, source: "csv", account: kind },
  };
  for (const [index, item] of checked.entries()) {
    if (index > 0 && index % CHECKPOINT_ROWS === 0) {
      const phase = kind === "companies" ? "companies" : "people";
      if (!(await checkpoint(deps, row.id, { phase, done: index, total: checked.length, counts, errors })))
        return deps.blobs.delete(key);
    }
    if (item.action !== "import") {
      counts[item.action === "skip" ? "skipped" : "failed"]++;
      report(item.line, item);
      continue;
    }
    try {
      const made = await transact(
        deps.db,
        async (tx) =>
          await withoutReactions(tx, async () =>
            kind === "companies" ? await writeCompanyRow(tx, w, item) : await writeContactRow(tx, w, item),
          ),
      );
      counts.companies += made;
      if (kind === "contacts") counts.contacts++;
    } catch (error) {
      if (!(error instanceof DeskError)) deps.logger.error({ err: error, import_id: row.id }, "csv import row failed");
      counts.failed++;
      report(item.line, rowRefusal(error, columns));
    }
  }
  const written = checked.length - counts.failed - counts.skipped;
  await end(written === 0 && counts.failed > 0 ? "failed" : "succeeded", {
    counts,
    errors,
    done: checked.length,
    total: checked.length,
  });
}
