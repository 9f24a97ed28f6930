import { Elysia } from "elysia";
import type { RequestContext } from "../auth/context";
import { READ_POOL_NOTE } from "../db/read-pool";
import type { Deps } from "../deps";
import { csvHeaders, csvStream, type CsvPage } from "../lib/csv";
import type { listCompanies } from "./companies.service";
import type { ContactJson } from "./contacts.present";
import { companyListRead, pooledContactPage } from "./contacts.reads";
import { CompanyListQuery, ContactListQuery } from "./contacts.schemas";

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
  "locale",
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
  c.locale ?? "",
  c.ticket_count,
  c.notes,
  c.created_at,
  c.updated_at,
  Object.keys(c.fields).length > 0 ? c.fields : "",
];

type Company = Awaited<ReturnType<typeof listCompanies>>["data"][number];
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
 * answering, so a bad filter is a 422 rather than a broken download. Each page is one read pool
 * read, so a long export holds a worker only while a page is read and other reads interleave.
 */
async function exportOf<T>(
  header: readonly string[],
  rowOf: (item: T) => unknown[],
  list: (cursor: string | undefined) => Promise<{ data: T[]; next_cursor: string | null }>,
  filename: string,
): Promise<Response> {
  const first = await list(undefined);
  const page = async (cursor: string | null): Promise<CsvPage<string>> => {
    if (cursor === null) return { rows: first.data.map(rowOf), next: first.next_cursor };
    const next = await list(cursor);
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
const POOL_NOTE = `Each page is one read: ${READ_POOL_NOTE} If a page after the first fails that way, the download ends early (incomplete).`;

/** GET /v1/contacts/export.csv and /v1/companies/export.csv: the lists' filters and order. */
export function recordsExportRoutes(deps: Deps) {
  const contacts = (ctx: RequestContext, query: Record<string, unknown>) => (cursor: string | undefined) =>
    pooledContactPage(deps, ctx, { ...query, limit: EXPORT_PAGE, cursor });
  const companies = (ctx: RequestContext, query: Record<string, unknown>) => (cursor: string | undefined) =>
    deps.reads.run(companyListRead, ctx.workspaceId, { ctx, query: { ...query, limit: EXPORT_PAGE, cursor } });
  return new Elysia()
    .use(deps.guard)
    .get(
      "/contacts/export.csv",
      ({ ctx, query }) => exportOf(CONTACT_HEADER, contactRow, contacts(ctx, query), "contacts.csv"),
      {
        access: read,
        query: ContactListQuery.omit({ limit: true, cursor: true }),
        detail: {
          tags: ["contacts"],
          summary: `Contacts as CSV with the filters of GET /v1/contacts: ${CSV_NOTE}`,
          description: POOL_NOTE,
          responses: csvAnswer("contacts"),
        },
      },
    )
    .get(
      "/companies/export.csv",
      ({ ctx, query }) => exportOf(COMPANY_HEADER, companyRow, companies(ctx, query), "companies.csv"),
      {
        access: read,
        query: CompanyListQuery.omit({ limit: true, cursor: true }),
        detail: {
          tags: ["companies"],
          summary: `Companies as CSV with the filters of GET /v1/companies: ${CSV_NOTE}`,
          description: POOL_NOTE,
          responses: csvAnswer("companies"),
        },
      },
    );
}
