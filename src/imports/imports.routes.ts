import { Elysia } from "elysia";
import type { z } from "zod";
import type { RequestContext } from "../auth/context";
import type { Deps } from "../deps";
import { IdParams, PageQuery, pageOfSchema } from "../http/schemas";
import { DeskError, invalidAt, validationFailed } from "../lib/errors";
import { newId } from "../lib/ids";
import { csvDryRun, csvKeyOf, parseCsv, resolveColumns } from "./imports.csv";
import { checkSource } from "./imports.check";
import {
  CreateImportBody,
  CSV_KINDS,
  CSV_MAX_BYTES,
  CSV_MAX_ROWS,
  CsvDryRunSchema,
  CsvMappingSchema,
  type CsvDryRunJson,
  type CsvKind,
  type CsvMapping,
  ImportCheckSchema,
  ImportSchema,
  type CreateImportInput,
} from "./imports.schemas";
import { presentImport } from "./imports.present";
import { cancelImport, createImport, findImport, listImports } from "./imports.service";
import { accountOf } from "./imports.sources";
import type { ImportRow } from "./imports.table";

const read = { role: "admin", scopes: ["settings:read"] } as const;
const write = { role: "admin", scopes: ["settings:write"] } as const;

/** Zendesk's statuses and priorities in Desk's terms (also in README "Bringing your history"). */
const MAPPING_DOC =
  "Zendesk statuses: new → open, open → open, pending → pending, hold → on_hold, solved → solved, closed → closed; deleted tickets are not imported. Priorities: low, normal, high, urgent as they are; none → normal. Freshdesk statuses: 2 Open → open, 3 Pending → pending, 4 Resolved → solved, 5 Closed → closed, any other (custom) → on_hold; spam and deleted tickets are not imported; priorities 1 Low → low, 2 Medium → normal, 3 High → high, 4 Urgent → urgent; the description is the first message, private conversations become notes. Help Scout statuses: active → open, pending → pending, closed → solved; spam, draft and deleted conversations are not imported; every ticket is normal priority; customer, reply, message, chat and phone threads become messages, note and forward threads notes, line items are not imported. Tags become labels; end users become contacts (matched by email), organizations companies; agents are matched to members by email (else their name stays on their messages and the ticket is unassigned); public comments become replies and private ones internal notes, with their attachments, at their original times.";

const OPTIONS_DOC =
  "imap options (a mailbox's history): host, port, tls (tls, starttls or none; default tls), username, password, folders (default INBOX and the folder flagged \\Sent; at most 20); messages are threaded by References/In-Reply-To into tickets, sent mail becomes agent replies (by the member with the sender's address, if any), a conversation answered last is solved and one whose newest message came in is open; each folder's UIDVALIDITY and last UID are the cursor, so a re-run reads only newer mail. freshdesk options: domain (acme or acme.freshdesk.com), api_key, base_url, requests_per_minute (default 200, the Growth plan's budget; X-RateLimit-Remaining at 0 pauses a minute). helpscout options: app_id, app_secret (an OAuth2 app's client credentials; the token is renewed when it expires or is refused), base_url, requests_per_minute (default 400, Help Scout's budget). zendesk options: subdomain, email, api_token (the credentials are sealed at rest and deleted when the run ends), base_url (the API root, for a proxy), requests_per_minute (default 200, Zendesk's lowest plan budget) and export_requests_per_minute (default 10, the incremental export budget). csv: multipart/form-data with source=csv, kind=contacts|companies and the file (UTF-8, header row; contacts: email, name, phone, company, notes, external_id, created_at; companies: name, domain, notes, created_at; custom fields as custom.<key>; at most 10 MB and 50,000 rows). Optional form fields: mapping (a JSON object, Desk field → CSV header; without it headers are matched to Desk's field names, any case) and dry_run=true, which writes nothing and answers 200 { kind, headers, sample_rows (the first 5), suggested_mapping, mapping, row_count, totals { create, update, skip, error }, problems (file-level: unknown or unmapped columns), rows (the first 1,000: row, action create|update|skip|error, column, message) }. A contact updates the one with its email (or external_id), a company the one with its domain or name. Each row is written whole or not at all: invalid rows are reported per row in errors (record \"row N\", the column in the message; at most 100 kept) and counted in counts.failed; a row repeating an earlier row's email (companies: name) is skipped, reported and counted in counts.skipped (the first wins). A file-level problem fails the import with nothing written.";

/** The options of the sources added after Zendesk, as the OpenAPI document shows them. */
/** The OpenAPI shape of one source's options (the route reads its own body, so they are written out here). */
type OptionsSchema = {
  title: string;
  type: "object";
  properties: Record<
    string,
    | { type: "string" | "integer"; description?: string; enum?: string[] }
    | { type: "array"; items: { type: "string" }; maxItems?: number; description?: string }
  >;
  required: string[];
};

const SOURCE_OPTIONS_SCHEMAS: OptionsSchema[] = [
  {
    title: "freshdesk",
    type: "object" as const,
    properties: {
      domain: { type: "string" as const, description: "acme or acme.freshdesk.com" },
      api_key: { type: "string" as const },
      base_url: { type: "string" as const },
      requests_per_minute: { type: "integer" as const, description: "default 200" },
    },
    required: ["domain", "api_key"],
  },
  {
    title: "helpscout",
    type: "object" as const,
    properties: {
      app_id: { type: "string" as const },
      app_secret: { type: "string" as const },
      base_url: { type: "string" as const },
      requests_per_minute: { type: "integer" as const, description: "default 400" },
    },
    required: ["app_id", "app_secret"],
  },
  {
    title: "imap",
    type: "object" as const,
    properties: {
      host: { type: "string" as const },
      port: { type: "integer" as const },
      tls: {
        type: "string" as const,
        enum: ["tls", "starttls", "none"],
        description: "default tls; true/false also accepted",
      },
      username: { type: "string" as const },
      password: { type: "string" as const },
      folders: {
        type: "array" as const,
        items: { type: "string" as const },
        maxItems: 20,
        description: "default INBOX and the \\Sent folder",
      },
    },
    required: ["host", "port", "username", "password"],
  },
];

/** zod issues of a hand-parsed body as SPEC.md's 422, each at `body.<path>`. */
function bodyErrors(error: z.ZodError) {
  return validationFailed(
    error.issues.map((issue) => ({ location: ["body", ...issue.path.map(String)].join("."), message: issue.message })),
  );
}

async function readJson(request: Request): Promise<CreateImportInput> {
  const type = request.headers.get("content-type");
  if (type && !/^application\/(?:[\w.+-]+\+)?json\b/i.test(type))
    throw new DeskError(
      415,
      "unsupported_media_type",
      "Send the body as application/json (or a CSV as multipart/form-data).",
    );
  let raw: unknown;
  try {
    raw = JSON.parse((await request.text()) || "{}");
  } catch {
    throw new DeskError(400, "malformed_json", "The request body could not be parsed as JSON.");
  }
  const parsed = CreateImportBody.safeParse(raw);
  if (!parsed.success) throw bodyErrors(parsed.error);
  return parsed.data;
}

/** The form's `mapping` (a JSON object, Desk field → CSV header) and `dry_run` flag, checked. */
function csvFormOptions(form: FormData): { mapping: CsvMapping | undefined; dryRun: boolean } {
  const rawMapping = form.get("mapping");
  let mapping: CsvMapping | undefined;
  if (rawMapping !== null && rawMapping !== "") {
    let json: unknown;
    try {
      json = JSON.parse(typeof rawMapping === "string" ? rawMapping : "");
    } catch {
      throw invalidAt("body.mapping", "mapping is a JSON object: Desk field → CSV header.");
    }
    const parsed = CsvMappingSchema.safeParse(json);
    if (!parsed.success) throw invalidAt("body.mapping", "mapping is a JSON object: Desk field → CSV header.");
    mapping = parsed.data;
  }
  const rawDry = form.get("dry_run");
  if (rawDry !== null && !["true", "false", "1", "0", ""].includes(String(rawDry)))
    throw invalidAt("body.dry_run", "dry_run is true or false.");
  return { mapping, dryRun: rawDry === "true" || rawDry === "1" };
}

/**
 * A CSV upload (multipart/form-data): a dry run answers what each row would do; otherwise the file is
 * put in the desk's store where the import job reads it, and removed when the import cannot start.
 */
async function startCsvImport(ctx: RequestContext, request: Request, deps: Deps): Promise<ImportRow | CsvDryRunJson> {
  let form: FormData;
  try {
    form = await request.formData();
  } catch {
    throw invalidAt("body", "Send multipart/form-data with source, kind and file.");
  }
  if (form.get("source") !== "csv") throw invalidAt("body.source", "A file upload imports source csv.");
  const kind = form.get("kind");
  if (typeof kind !== "string" || !(CSV_KINDS as readonly string[]).includes(kind))
    throw invalidAt("body.kind", "kind is contacts or companies.");
  const file = form.get("file");
  if (!(file instanceof Blob)) throw invalidAt("body.file", "Field `file` must hold the CSV file.");
  if (file.size > CSV_MAX_BYTES) throw invalidAt("body.file", "The file may be at most 10 MB.");
  const { mapping, dryRun } = csvFormOptions(form);
  if (dryRun) return await csvDryRun(deps.db, ctx.workspaceId, kind as CsvKind, await file.text(), mapping);
  if (mapping) {
    const header = parseCsv(await file.text(), 0);
    const problems = resolveColumns(kind as CsvKind, "error" in header ? [] : (header.rows[0] ?? []), mapping).problems;
    if (problems.length)
      throw validationFailed(
        problems.map((p) => ({
          location: "body.mapping",
          message: p.column ? `${p.column}: ${p.message}` : p.message,
        })),
      );
  }
  const id = newId();
  const key = csvKeyOf(id);
  await deps.blobs.put(key, file, { contentType: "text/csv" });
  try {
    return await createImport(ctx, { id, source: "csv", account: kind, options: mapping ? { mapping } : {} }, deps);
  } catch (error) {
    await deps.blobs.delete(key);
    throw error;
  }
}

const START_IMPORT_DOC = {
  summary:
    "Start an import of another help desk's history (runs in the background; 409 while one of the same account runs)",
  // The body is read by the route (JSON or a CSV upload): malformed JSON and other types are refused there.
  responses: {
    400: { description: "Malformed JSON" },
    415: { description: "Neither JSON nor multipart/form-data" },
  },
  description: `${OPTIONS_DOC} A re-run of the same account fetches only what changed since the last finished run, updates what changed and creates only what is new. Imported records keep their times (contacts and companies the source's creation time, a CSV's from a created_at column; a re-run never moves it) and imported mail's Message-IDs thread live replies into their tickets; imports send no mail, CSAT or notifications, and run no automations, SLA clocks or assignment. Vendor custom fields become Desk custom fields of the matching type (a type with no match: text; reused by the vendor's id on a re-run) with the records' values, at most 100 values a record and 200 options a field. Images in imported HTML become attachments of their message when they are the mail's cid: parts or on the account's own host (base_url; at most 50 a message, each within the attachment limit); any other remote image, and one that fails to download, is replaced by its alt text (a failure is listed among the errors). ${MAPPING_DOC}`,
  requestBody: {
    required: true,
    content: {
      "application/json": {
        schema: {
          type: "object" as const,
          properties: {
            source: { type: "string" as const, enum: ["zendesk", "freshdesk", "helpscout", "imap"] },
            options: {
              oneOf: [
                {
                  title: "zendesk",
                  type: "object" as const,
                  properties: {
                    subdomain: { type: "string" as const },
                    email: { type: "string" as const },
                    api_token: { type: "string" as const },
                    base_url: { type: "string" as const },
                    requests_per_minute: { type: "integer" as const },
                    export_requests_per_minute: { type: "integer" as const },
                  },
                  required: ["subdomain", "email", "api_token"],
                },
                ...SOURCE_OPTIONS_SCHEMAS,
              ],
            },
          },
          required: ["source", "options"],
        },
      },
      "multipart/form-data": {
        schema: {
          type: "object" as const,
          properties: {
            source: { type: "string" as const, enum: ["csv"] },
            kind: { type: "string" as const, enum: [...CSV_KINDS] },
            file: { type: "string" as const, format: "binary" },
            mapping: {
              type: "string" as const,
              description:
                'A JSON object, Desk field → CSV header, e.g. {"email":"E-mail","name":"Full name","custom.plan":"Plan"}; without it each header must be a Desk field\'s name (any case)',
            },
            dry_run: {
              type: "string" as const,
              enum: ["true", "false"],
              description:
                "true: nothing is written; answers 200 with the headers, sample rows, a suggested mapping and what each row would do",
            },
          },
          required: ["source", "kind", "file"],
        },
      },
    },
  },
};

/** Starting an import, and trying a source's credentials first. */
function importStartRoutes(deps: Deps) {
  return new Elysia({ prefix: "/imports", tags: ["imports"] })
    .use(deps.guard)
    .post(
      "/",
      async ({ ctx, request, set }) => {
        const type = request.headers.get("content-type") ?? "";
        if (type.startsWith("multipart/form-data")) {
          const row = await startCsvImport(ctx, request, deps);
          if ("headers" in row) return row;
          set.status = 202;
          return presentImport(row);
        }
        const input = await readJson(request);
        const row = await createImport(
          ctx,
          { source: input.source, account: accountOf(input), options: input.options },
          deps,
        );
        set.status = 202;
        return presentImport(row);
      },
      {
        access: write,
        parse: "none",
        response: { 200: CsvDryRunSchema, 202: ImportSchema },
        detail: START_IMPORT_DOC,
      },
    )
    .post("/check", async ({ request }) => checkSource(await readJson(request), deps), {
      access: write,
      parse: "none",
      response: { 200: ImportCheckSchema },
      detail: {
        summary: "Test a source's credentials and preview its totals (nothing is stored)",
        responses: { 400: { description: "Malformed JSON" }, 415: { description: "Not JSON" } },
        description: `Same body as POST /v1/imports (JSON sources). ${OPTIONS_DOC}`,
        requestBody: {
          required: true,
          content: {
            "application/json": {
              schema: {
                type: "object",
                properties: { source: { type: "string" }, options: { type: "object" } },
                required: ["source", "options"],
              },
            },
          },
        },
      },
    });
}

/** The workspace's imports: the list, one import, cancelling one. */
function importRunRoutes(deps: Deps) {
  return new Elysia({ prefix: "/imports", tags: ["imports"] })
    .use(deps.guard)
    .get("/", async ({ ctx, query }) => await listImports(deps.db, ctx, query), {
      access: read,
      query: PageQuery,
      response: { 200: pageOfSchema(ImportSchema) },
      detail: { summary: `Imports of the workspace, newest first (at most ${CSV_MAX_ROWS} rows per CSV)` },
    })
    .get("/:id", async ({ ctx, params }) => presentImport(await findImport(deps.db, ctx.workspaceId, params.id)), {
      access: read,
      params: IdParams,
      response: { 200: ImportSchema },
      detail: { summary: "An import: status, progress, counts and up to 100 errors" },
    })
    .post("/:id/cancel", async ({ ctx, params }) => presentImport(await cancelImport(ctx, params.id, deps)), {
      access: write,
      params: IdParams,
      response: { 200: ImportSchema },
      detail: { summary: "Cancel an import at its next page (what it wrote stays; a re-run goes on from there)" },
    });
}

export const importsRoutes = (deps: Deps) => new Elysia().use(importStartRoutes(deps)).use(importRunRoutes(deps));
