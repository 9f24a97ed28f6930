import { Elysia } from "elysia";
import type { RequestContext } from "../auth/context";
import { shareTurn } from "../db/tx";
import type { Deps } from "../deps";
import { csvHeaders, csvStream, type CsvPage } from "../lib/csv";
import { listCompanies } from "./companies.service";
import type { ContactJson } from "./contacts.present";
import { CompanyListQuery, ContactListQuery } from "./contacts.schemas";
import { listContacts } from "./contacts.service";

/** Records read per page of an export: large enough to amortise the presenters' batched reads. */
const EXPORT_PAGE = 500;
const read = { role: "viewer", scopes: ["contacts:read"] } as const;

const CONTACT_HEADER = [
  "id",
  "name",
  "email",
  "other_emails",
  "phone",
  "company",
  "external_id",
  "tags",
  "blocked",
  "ticket_count",
  "notes",
  "created_at",
  "updated_at",
  "fields",
] as const;
const contactRow = (c: ContactJson): unknown[] => [
  c.id,
  c.name,
  c.email,
  c.emails.slice(c.email ? 1 : 0),
  c.phone,
  c.company?.name ?? "",
  c.external_id,
  c.tags.map((t) => t.name),
  c.blocked,
  c.ticket_count,
  c.notes,
  c.created_at,
  c.updated_at,
  Object.keys(c.fields).length > 0 ? c.fields : "",
];

type Company = ReturnType<typeof listCompanies>["data"][number];
const COMPANY_HEADER = [
  "id",
  "name",
  "domain",
  "tags",
  "contact_count",
  "notes",
  "created_at",
  "updated_at",
  "fields",
] as const;
const companyRow = (c: Company): unknown[] => [
  c.id,
  c.name,
  c.domain,
  c.tags.map((t) => t.name),
  c.contact_count,
  c.notes,
  c.created_at,
  c.updated_at,
  Object.keys(c.fields).length > 0 ? c.fields : "",
];

/**
 * A list read page by page into a CSV body as the client takes it. The first page is read before
 * answering, so a bad filter is a 422 rather than a broken download.
 */
function exportOf<T>(
  deps: Deps,
  header: readonly string[],
  rowOf: (item: T) => unknown[],
  list: (cursor: string | undefined) => { data: T[]; next_cursor: string | null },
  filename: string,
): Response {
  const first = list(undefined);
  const page = (cursor: string | null): CsvPage<string> => {
    if (cursor === null) return { rows: first.data.map(rowOf), next: first.next_cursor };
    shareTurn(deps.db);
    const next = list(cursor);
    return { rows: next.data.map(rowOf), next: next.next_cursor };
  };
  return new Response(csvStream(header, page), { headers: csvHeaders(filename) });
}

const csvAnswer = (what: string) => ({
  200: {
    description: `The ${what}, one per line after the header`,
    content: { "text/csv": { schema: { type: "string" as const } } },
  },
});
const CSV_NOTE =
  "UTF-8 with a BOM for Excel, RFC 4180 quoting, a header row; streamed in pages of 500; a cell starting with = + - @ tab or CR is prefixed with ' so spreadsheets never run it";

/** GET /v1/contacts/export.csv and /v1/companies/export.csv: the lists' filters and order. */
export function recordsExportRoutes(deps: Deps) {
  const contacts = (ctx: RequestContext, query: Record<string, unknown>) => (cursor: string | undefined) =>
    listContacts(deps.db, ctx, { ...query, limit: EXPORT_PAGE, cursor }, deps.ports);
  const companies = (ctx: RequestContext, query: Record<string, unknown>) => (cursor: string | undefined) =>
    listCompanies(deps.db, ctx, { ...query, limit: EXPORT_PAGE, cursor });
  return new Elysia()
    .use(deps.guard)
    .get(
      "/contacts/export.csv",
      ({ ctx, query }) => exportOf(deps, CONTACT_HEADER, contactRow, contacts(ctx, query), "contacts.csv"),
      {
        access: read,
        query: ContactListQuery.omit({ limit: true, cursor: true }),
        detail: {
          tags: ["contacts"],
          summary: `Contacts as CSV with the filters of GET /v1/contacts: ${CSV_NOTE}`,
          responses: csvAnswer("contacts"),
        },
      },
    )
    .get(
      "/companies/export.csv",
      ({ ctx, query }) => exportOf(deps, COMPANY_HEADER, companyRow, companies(ctx, query), "companies.csv"),
      {
        access: read,
        query: CompanyListQuery.omit({ limit: true, cursor: true }),
        detail: {
          tags: ["companies"],
          summary: `Companies as CSV with the filters of GET /v1/companies: ${CSV_NOTE}`,
          responses: csvAnswer("companies"),
        },
      },
    );
}
