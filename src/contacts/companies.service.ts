import { first, one } from "../db/store";
import { and, eq, inArray, isNull, or, sql, type SQL } from "drizzle-orm";
import type { RequestContext } from "../auth/context";
import type { Db, Queryable, Tx } from "../db/database";
import { pageOf } from "../db/cursor";
import { transact } from "../db/tx";
import { companyCreated, companyDeleted, companyUpdated } from "./contacts.events";
import { appendEvent } from "../events/append";
import { conflict, invalidAt, notFound } from "../lib/errors";
import { newId } from "../lib/ids";
import { contacts } from "./contacts.table";
import { likePrefix } from "./contacts.text";
import { ftsHitKeySql, matchingCompanyRowidsSql } from "../search/search.public";
import { sqlParts } from "../db/dialect";
import {
  applyFieldWrite,
  clearFieldValues,
  fieldFilterSql,
  fieldValuePrefixSql,
  fieldValuesOf,
  parseFieldFilters,
} from "../custom-fields/custom-fields.public";
import { applyLabelWrite, clearLabels, labelFilterSql, labelsOf, type LabelWrite } from "../labels/labels.public";
import { companies } from "./companies.table";
import { recordSortPlan } from "./records.sort";
import type { Clock } from "../lib/clock";
import type { Ports } from "../lib/ports";

type Deps = { db: Db; clock: Clock; ports: Ports };
export type CompanyRow = typeof companies.$inferSelect;
export type CompanyInput = LabelWrite & {
  name?: string;
  domain?: string | null;
  notes?: string;
  custom?: Record<string, unknown>;
  fields?: Record<string, unknown>;
};

const DOMAIN_RE = /^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;

/** Lowercase host name; a pasted URL or `www.` prefix is reduced to the domain. */
export function normalizeDomain(raw: string): string {
  const domain = raw
    .trim()
    .toLowerCase()
    .replace(/^https?:\/\//, "")
    .replace(/\/.*$/, "")
    .replace(/^www\./, "");
  if (!DOMAIN_RE.test(domain)) throw invalidAt("body.domain", "not a domain name");
  return domain;
}

async function contactCounts(db: Queryable, ids: string[]): Promise<Map<string, number>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .select({ companyId: contacts.companyId, n: sql<number>`count(*)` })
    .from(contacts)
    .where(and(inArray(contacts.companyId, ids), isNull(contacts.deletedAt)))
    .groupBy(contacts.companyId);
  return new Map(rows.map((r) => [r.companyId!, r.n]));
}

export async function presentCompanies(db: Queryable, rows: CompanyRow[]) {
  const ids = rows.map((r) => r.id);
  const tagsById = await labelsOf(db, "companies", ids);
  const fieldsById = await fieldValuesOf(db, "company", ids);
  const counts = await contactCounts(db, ids);
  return rows.map((row) => ({
    id: row.id,
    name: row.name,
    domain: row.domain,
    notes: row.notes,
    custom: row.custom ?? {},
    tags: tagsById.get(row.id) ?? [],
    fields: fieldsById.get(row.id) ?? {},
    contact_count: counts.get(row.id) ?? 0,
    avatar_url: row.avatarUrl ?? null,
    avatar_source: row.avatarSource ?? null,
    created_at: row.createdAt,
    updated_at: row.updatedAt,
  }));
}
export const presentCompany = async (db: Queryable, row: CompanyRow) => (await presentCompanies(db, [row]))[0]!;

export async function findCompany(db: Queryable, workspaceId: string, id: string): Promise<CompanyRow | undefined> {
  return first(
    await db
      .select()
      .from(companies)
      .where(and(eq(companies.workspaceId, workspaceId), eq(companies.id, id), isNull(companies.deletedAt)))
      .limit(1),
  );
}

/** A live company with this domain, else one with this name (case-insensitive): what a CSV import updates. */
export async function liveCompanyByDomainOrName(
  db: Queryable,
  workspaceId: string,
  match: { domain: string | null; name: string },
): Promise<CompanyRow | undefined> {
  const live = and(eq(companies.workspaceId, workspaceId), isNull(companies.deletedAt));
  let domain: string | null = null;
  try {
    domain = match.domain ? normalizeDomain(match.domain) : null;
  } catch {
    // Not a domain: the name alone decides, and the write refuses the domain.
  }
  const byDomain = domain
    ? first(
        await db
          .select()
          .from(companies)
          .where(and(live, eq(companies.domain, domain)))
          .limit(1),
      )
    : undefined;
  return (
    byDomain ??
    first(
      await db
        .select()
        .from(companies)
        .where(and(live, sql`lower(${companies.name}) = ${match.name.toLowerCase()}`))
        .orderBy(companies.id)
        .limit(1),
    )
  );
}

async function assertDomainFree(
  tx: Tx,
  workspaceId: string,
  domain: string | null | undefined,
  exceptId: string | null,
) {
  if (!domain) return;
  const taken = first(
    await tx
      .select({ id: companies.id })
      .from(companies)
      .where(and(eq(companies.workspaceId, workspaceId), eq(companies.domain, domain), isNull(companies.deletedAt)))
      .limit(1),
  );
  if (taken && taken.id !== exceptId) throw conflict("A company with this domain already exists.");
}

async function applyExtras(
  tx: Tx,
  ctx: RequestContext,
  id: string,
  input: CompanyInput,
  ports: Ports,
): Promise<boolean> {
  const labels = await applyLabelWrite(tx, ctx, "companies", id, input, ports);
  const fields = input.fields !== undefined ? await applyFieldWrite(tx, ctx, "company", id, input.fields) : [];
  return labels.added.length + labels.removed.length + fields.length > 0;
}

/** `options.createdAt`: an import keeps the source's creation time (ISO 8601); else now. */
export async function createCompany(
  ctx: RequestContext,
  input: CompanyInput & { name: string },
  deps: Deps,
  options: { createdAt?: string } = {},
): Promise<CompanyRow> {
  const domain = input.domain ? normalizeDomain(input.domain) : null;
  return await transact(deps.db, async (tx) => {
    await assertDomainFree(tx, ctx.workspaceId, domain, null);
    const now = deps.clock.now().toISOString();
    const row = one(
      await tx
        .insert(companies)
        .values({
          id: newId(),
          workspaceId: ctx.workspaceId,
          name: input.name,
          domain,
          notes: input.notes ?? "",
          custom: input.custom ?? {},
          createdAt: options.createdAt ?? now,
          updatedAt: now,
        })
        .returning(),
    );
    await applyExtras(tx, ctx, row.id, input, deps.ports);
    await appendEvent(tx, companyCreated, {
      workspaceId: ctx.workspaceId,
      data: { company: await presentCompany(tx, row) },
    });
    return row;
  });
}

export async function updateCompany(
  ctx: RequestContext,
  id: string,
  input: CompanyInput,
  deps: Deps,
): Promise<CompanyRow> {
  const domain = input.domain ? normalizeDomain(input.domain) : input.domain === undefined ? undefined : null;
  return await transact(deps.db, async (tx) => {
    const before = await findCompany(tx, ctx.workspaceId, id);
    if (!before) throw notFound("Company");
    await assertDomainFree(tx, ctx.workspaceId, domain, id);
    const patch: Partial<CompanyRow> = {};
    if (input.name !== undefined) patch.name = input.name;
    if (domain !== undefined) patch.domain = domain;
    if (input.notes !== undefined) patch.notes = input.notes;
    if (input.custom !== undefined) patch.custom = input.custom;
    const columnsChanged = Object.entries(patch).some(
      ([k, v]) => JSON.stringify(before[k as keyof CompanyRow]) !== JSON.stringify(v),
    );
    const extrasChanged = await applyExtras(tx, ctx, id, input, deps.ports);
    if (!columnsChanged && !extrasChanged) return before;
    const row = one(
      await tx
        .update(companies)
        .set({ ...patch, updatedAt: deps.clock.now().toISOString() })
        .where(eq(companies.id, id))
        .returning(),
    );
    await appendEvent(tx, companyUpdated, {
      workspaceId: ctx.workspaceId,
      data: { company: await presentCompany(tx, row) },
    });
    return row;
  });
}

/** Soft-deletes a company; its contacts stay, without a company. */
export async function deleteCompany(ctx: RequestContext, id: string, deps: Deps): Promise<void> {
  await transact(deps.db, async (tx) => {
    if (!(await findCompany(tx, ctx.workspaceId, id))) throw notFound("Company");
    const now = deps.clock.now().toISOString();
    await tx.update(companies).set({ deletedAt: now }).where(eq(companies.id, id));
    await tx
      .update(contacts)
      .set({ companyId: null, updatedAt: now })
      .where(and(eq(contacts.workspaceId, ctx.workspaceId), eq(contacts.companyId, id)));
    await clearLabels(tx, "companies", id);
    await clearFieldValues(tx, "company", id);
    await appendEvent(tx, companyDeleted, { workspaceId: ctx.workspaceId, data: { company_id: id } });
  });
}

export type CompanyListQuery = {
  limit: number;
  cursor?: string;
  q?: string;
  tag?: string;
  sort?: string;
  order?: "asc" | "desc";
} & Record<string, unknown>;

export async function listCompanies(db: Queryable, ctx: RequestContext, query: CompanyListQuery) {
  const conditions: SQL[] = [eq(companies.workspaceId, ctx.workspaceId), isNull(companies.deletedAt)];
  const plan = await recordSortPlan(db, ctx, "company", companies.id, query);
  conditions.push(...plan.after);
  if (query.q !== undefined && query.q.trim() !== "") {
    const prefix = likePrefix(query.q.trim());
    const { likeInsensitive: like } = sqlParts(db);
    const words = matchingCompanyRowidsSql(db, query.q);
    conditions.push(
      or(
        // Any word of the name or domain (company_search); the prefix still finds "acme.co" or "Ac".
        ...(words ? [sql`${ftsHitKeySql(db, companies)} IN (${words})`] : []),
        like(companies.name, prefix),
        like(companies.domain, prefix),
        sql`${companies.id} IN (${fieldValuePrefixSql(db, ctx.workspaceId, "company", prefix)})`,
      )!,
    );
  }
  if (query.tag !== undefined) conditions.push(labelFilterSql("companies", ctx.workspaceId, query.tag, companies.id));
  for (const filter of parseFieldFilters(query))
    conditions.push(await fieldFilterSql(ctx, "company", filter, companies.id, db));
  const rows = await db
    .select({ row: companies, sortValue: sql<string | number | null>`${plan.key}` })
    .from(companies)
    .where(and(...conditions))
    .orderBy(...plan.orderBy)
    .limit(query.limit + 1);
  const page = await pageOf(
    rows,
    query.limit,
    (r) => r.row,
    (r) => plan.cursorOf(r.row.id, r.sortValue),
  );
  return { data: await presentCompanies(db, page.data), next_cursor: page.next_cursor };
}

/** Sets or clears a company's uploaded logo and appends `company.updated`; another workspace's company is 404. */
export async function setCompanyPicture(
  tx: Tx,
  ctx: RequestContext,
  id: string,
  url: string | null,
  now: string,
): Promise<CompanyRow> {
  const row = first(
    await tx
      .update(companies)
      .set({ avatarUrl: url, avatarSource: url ? "upload" : null, updatedAt: now })
      .where(and(eq(companies.workspaceId, ctx.workspaceId), eq(companies.id, id), isNull(companies.deletedAt)))
      .returning(),
  );
  if (!row) throw notFound("Company");
  await appendEvent(tx, companyUpdated, {
    workspaceId: ctx.workspaceId,
    data: { company: await presentCompany(tx, row) },
  });
  return row;
}

/** Sets a logo found from the company's domain: never over an uploaded one; `company.updated` when it changes. */
export async function setCompanyAutoPicture(
  tx: Tx,
  workspaceId: string,
  id: string,
  url: string | null,
  now: string,
): Promise<boolean> {
  const current = await findCompany(tx, workspaceId, id);
  if (!current || current.avatarSource === "upload") return false;
  if (current.avatarUrl === url) return false;
  if (url === null && current.avatarSource !== "domain") return false;
  const row = one(
    await tx
      .update(companies)
      .set({ avatarUrl: url, avatarSource: url ? "domain" : null, updatedAt: now })
      .where(and(eq(companies.workspaceId, workspaceId), eq(companies.id, id)))
      .returning(),
  );
  await appendEvent(tx, companyUpdated, { workspaceId, data: { company: await presentCompany(tx, row) } });
  return true;
}
