import { readFile, rm } from "node:fs/promises";
import { join } from "node:path";
import { systemContext } from "../auth/context";
import {
  createCompany,
  findOrCreateContactByEmail,
  createContact,
  updateCompany,
  updateContact,
} from "../contacts/contacts.public";
import { withTx } from "../db/tx";
import type { Deps } from "../deps";
import { withoutReactions } from "../events/consumers";
import { DeskError } from "../lib/errors";
import { and, eq, inArray } from "drizzle-orm";
import { mappingOf, saveMapping, type MappingScope } from "./imports.mappings";
import { CSV_MAX_ROWS, type CsvKind } from "./imports.schemas";
import { emitImportUpdated } from "./imports.present";
import { imports, type ImportError, type ImportRow } from "./imports.table";

const MAX_ERRORS = 100;
const EMAIL = /^[^\s@<>(),;:"]+@[^\s@<>(),;:"]+\.[^\s@<>(),;:"]+$/;

/** Where an uploaded CSV waits for its job: under the data dir, removed when the run ends. */
export const csvPathOf = (deps: Pick<Deps, "config">, id: string): string =>
  join(deps.config.dataDir, "imports", `${id}.csv`);

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

type Planned = { line: number; sourceId: string; values: Record<string, string> };

const COLUMNS: Record<CsvKind, { known: string[]; required: string[] }> = {
  contacts: { known: ["email", "name", "phone", "company", "notes", "external_id"], required: [] },
  companies: { known: ["name", "domain", "notes"], required: ["name"] },
};

/** Checks every row first: any bad row fails the import with nothing written. */
function plan(kind: CsvKind, rows: string[][], lines: number[]): { planned: Planned[]; errors: ImportError[] } {
  const errors: ImportError[] = [];
  const header = (rows[0] ?? []).map((h) => h.trim().toLowerCase());
  const { known, required } = COLUMNS[kind];
  const unknown = header.filter((h) => !known.includes(h));
  if (!header.length || unknown.length)
    return {
      planned: [],
      errors: [
        { record: "row 1", message: `Unknown columns: ${unknown.join(", ") || "(none)"}. Known: ${known.join(", ")}.` },
      ],
    };
  for (const column of required)
    if (!header.includes(column)) errors.push({ record: "row 1", message: `The column ${column} is required.` });
  if (kind === "contacts" && !header.includes("email") && !header.includes("external_id"))
    errors.push({ record: "row 1", message: "A contacts file needs an email or external_id column." });
  const planned: Planned[] = [];
  const seen = new Map<string, number>();
  for (let index = 1; index < rows.length; index++) {
    const cells = rows[index]!;
    const line = lines[index]!;
    const record = `row ${line}`;
    if (cells.length !== header.length) {
      errors.push({ record, message: `Has ${cells.length} fields; the header has ${header.length}.` });
      continue;
    }
    const values = Object.fromEntries(header.map((h, i) => [h, cells[i]!.trim()]));
    let sourceId: string;
    if (kind === "contacts") {
      const email = (values.email ?? "").toLowerCase();
      if (email && !EMAIL.test(email)) {
        errors.push({ record, message: `"${email.slice(0, 100)}" is not an email address.` });
        continue;
      }
      if (!email && !values.external_id) {
        errors.push({ record, message: "Has neither email nor external_id." });
        continue;
      }
      values.email = email;
      sourceId = email || `external:${values.external_id}`;
    } else {
      if (!values.name) {
        errors.push({ record, message: "Has no name." });
        continue;
      }
      sourceId = values.name.toLowerCase();
    }
    const first = seen.get(sourceId);
    if (first !== undefined) {
      errors.push({ record, message: `Repeats row ${first} (${sourceId.slice(0, 100)}).` });
      continue;
    }
    seen.set(sourceId, line);
    for (const [key, max] of [
      ["name", 200],
      ["phone", 50],
      ["notes", 10_000],
      ["domain", 253],
      ["company", 200],
      ["external_id", 255],
    ] as const)
      if ((values[key]?.length ?? 0) > max) {
        errors.push({ record, message: `${key} is longer than ${max} characters.` });
      }
    planned.push({ line, sourceId, values });
  }
  return { planned, errors };
}

/** Ends the run, unless it was canceled meanwhile (only a queued or running import changes). */
function endCsvRun(
  deps: Deps,
  row: ImportRow,
  status: "succeeded" | "failed",
  set: Partial<typeof imports.$inferInsert>,
): void {
  const now = deps.clock.now().toISOString();
  withTx(deps.db, (tx) => {
    const done = tx
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
      .returning()
      .get();
    if (done) emitImportUpdated(tx, done);
  });
}

/** The CSV run: every row checked, then all written in one transaction or none (a bad row fails it). */
export async function runCsvImport(deps: Deps, row: ImportRow): Promise<void> {
  const path = csvPathOf(deps, row.id);
  const kind = row.account as CsvKind;
  const end = (status: "succeeded" | "failed", set: Partial<typeof imports.$inferInsert>) =>
    endCsvRun(deps, row, status, set);
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch {
    return end("failed", { errors: [{ record: "file", message: "The uploaded file is gone." }] });
  }
  const parsed = parseCsv(text, CSV_MAX_ROWS + 1);
  if ("error" in parsed) {
    await rm(path, { force: true });
    return end("failed", { errors: [{ record: `row ${parsed.line}`, message: parsed.error }] });
  }
  const { planned, errors } = plan(kind, parsed.rows, parsed.lines);
  if (parsed.rows.length > CSV_MAX_ROWS + 1)
    errors.unshift({ record: "file", message: `More than ${CSV_MAX_ROWS} rows.` });
  const counts = { ...row.counts, failed: errors.length };
  if (errors.length) {
    await rm(path, { force: true });
    return end("failed", { errors: errors.slice(0, MAX_ERRORS), counts, total: planned.length + errors.length });
  }
  const scope: MappingScope = { workspaceId: row.workspaceId, source: "csv", account: kind };
  const ctx = systemContext(row.workspaceId, `import:${row.id}`);
  let current = "";
  try {
    withTx(deps.db, (tx) =>
      withoutReactions(() => {
        for (const item of planned) {
          current = `row ${item.line}`;
          const v = item.values;
          if (kind === "companies") {
            const input = {
              name: v.name!,
              ...(v.domain !== undefined ? { domain: v.domain || null } : {}),
              ...(v.notes !== undefined ? { notes: v.notes } : {}),
            };
            const mapping = mappingOf(tx, scope, "company", item.sourceId);
            const id = mapping
              ? updateCompany(ctx, mapping.deskId, input, deps).id
              : createCompany(ctx, input, deps).id;
            saveMapping(tx, scope, { kind: "company", sourceId: item.sourceId, deskId: id, sourceUpdatedAt: null });
            counts.companies++;
            continue;
          }
          let companyId: string | undefined;
          if (v.company) {
            const companies: MappingScope = { ...scope, account: "companies" };
            const key = v.company.toLowerCase();
            companyId = mappingOf(tx, companies, "company", key)?.deskId;
            if (!companyId) {
              companyId = createCompany(ctx, { name: v.company }, deps).id;
              saveMapping(tx, companies, { kind: "company", sourceId: key, deskId: companyId, sourceUpdatedAt: null });
              counts.companies++;
            }
          }
          const fields = {
            ...(v.name !== undefined ? { name: v.name } : {}),
            ...(v.phone !== undefined ? { phone: v.phone } : {}),
            ...(v.notes !== undefined ? { notes: v.notes } : {}),
            ...(companyId ? { company_id: companyId } : {}),
            ...(v.external_id ? { external_id: v.external_id } : {}),
          };
          const mapping = mappingOf(tx, scope, "contact", item.sourceId);
          let id = mapping?.deskId;
          if (!id && v.email)
            id = findOrCreateContactByEmail(tx, ctx, { email: v.email, name: v.name ?? null }, deps.ports).id;
          if (id) updateContact(ctx, id, fields, deps);
          else id = createContact(ctx, fields, deps).id;
          saveMapping(tx, scope, { kind: "contact", sourceId: item.sourceId, deskId: id, sourceUpdatedAt: null });
          counts.contacts++;
        }
      }),
    );
  } catch (error) {
    await rm(path, { force: true });
    const message =
      error instanceof DeskError
        ? [error.detail, ...(error.errors ?? []).map((e) => e.message)].join(" ")
        : "could not be written";
    if (!(error instanceof DeskError)) deps.logger.error({ err: error, import_id: row.id }, "csv import failed");
    return end("failed", { errors: [{ record: current, message }], counts: { ...row.counts, failed: 1 } });
  }
  await rm(path, { force: true });
  end("succeeded", { counts, done: planned.length, total: planned.length });
}
