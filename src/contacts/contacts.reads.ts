import type { RequestContext } from "../auth/context";
import type { Page } from "../db/cursor";
import type { Queryable } from "../db/database";
import { defineRead, type ReadPool } from "../db/read-pool";
import type { Ports } from "../lib/ports";
import { listCompanies } from "./companies.service";
import { presentContacts } from "./contacts.present";
import { contactRowsPage, listContacts } from "./contacts.service";
import { contactTicketCounts } from "./contacts.ticket-counts";

type ContactQuery = Parameters<typeof listContacts>[2];
type CompanyQuery = Parameters<typeof listCompanies>[2];
type Contact = Awaited<ReturnType<typeof listContacts>>["data"][number];
type Company = Awaited<ReturnType<typeof listCompanies>>["data"][number];

/**
 * The contact list's rows on a read pool worker. A word search may probe every contact and the
 * prefix fallback every address of the workspace; an export page walks it in order. The rows are
 * presented back on the request thread (the ticket counts come through a port, which a worker has
 * not). Neither needs the caller's same-turn writes: a reader sees committed data only.
 */
export const contactRowsRead = defineRead(
  "contacts.list-rows",
  async (db, p: { ctx: RequestContext; query: ContactQuery }) => await contactRowsPage(db, p.ctx, p.query),
);

/** The company list on a read pool worker (a word search, or an export page); committed data only, as above. */
export const companyListRead = defineRead(
  "companies.list",
  async (db, p: { ctx: RequestContext; query: CompanyQuery }) => await listCompanies(db, p.ctx, p.query),
);

type ListDeps = { db: Queryable; reads: ReadPool; ports: Ports };
const searches = (q: string | undefined) => q !== undefined && q.trim() !== "";

/** One page of contacts read on the pool, presented here. */
export async function pooledContactPage(
  deps: ListDeps,
  ctx: RequestContext,
  query: ContactQuery,
): Promise<Page<Contact>> {
  const page = await deps.reads.run(contactRowsRead, ctx.workspaceId, { ctx, query });
  return {
    data: await presentContacts(deps.db, deps.ports.get(contactTicketCounts), page.data),
    next_cursor: page.next_cursor,
  };
}

/** GET /v1/contacts: with `q` on the pool; without, an indexed page read on this thread. */
export async function readContactList(
  deps: ListDeps,
  ctx: RequestContext,
  query: ContactQuery,
): Promise<Page<Contact>> {
  return searches(query.q) ? pooledContactPage(deps, ctx, query) : await listContacts(deps.db, ctx, query, deps.ports);
}

/** GET /v1/companies: with `q` on the pool; without, an indexed page read on this thread. */
export async function readCompanyList(
  deps: ListDeps,
  ctx: RequestContext,
  query: CompanyQuery,
): Promise<Page<Company>> {
  return searches(query.q)
    ? deps.reads.run(companyListRead, ctx.workspaceId, { ctx, query })
    : await listCompanies(deps.db, ctx, query);
}
