import { first } from "../db/store";
import { and, asc, desc, eq, inArray, isNotNull, isNull, or, sql, type SQL } from "drizzle-orm";
import { actorUserId, type RequestContext } from "../auth/context";
import { fieldFilterSql, fieldSortSql, parseFieldFilters, type FieldFilter } from "../custom-fields/fields.public";
import { decodeCursor, pageOf, type Page } from "../db/cursor";
import type { Queryable } from "../db/database";
import { defineRead, type ReadPool } from "../db/read-pool";
import { DeskError, invalidAt } from "../lib/errors";
import { labelFilterSql } from "../labels/labels.public";
import { matchingTicketIdsSql } from "./tickets.search-sql";
import { findVisibleView, listVisibleViews, type ViewFilters } from "../views/views.public";
import { followedBySql } from "./followers.read";
import { presentTickets, type TicketJson } from "./tickets.present";
import { liveTicket, visibleTicketsCondition } from "./tickets.repo";
import { ticketSqlParts } from "./tickets.statements";
import type { TicketListInput } from "./tickets.schemas";
import { CHANNELS, PRIORITIES, SEVERITIES, TICKET_STATUSES, tickets, type TicketRow } from "./tickets.table";

/** One filter set, from the query string or a saved view; every member optional and combined with AND. */
export type TicketFilter = {
  status?: string[];
  priority?: string[];
  severity?: string[];
  assignee?: string;
  /** `me` or a user id: the tickets that person follows. */
  follower?: string;
  team_id?: string;
  mailbox_id?: string;
  contact_id?: string;
  tag?: string;
  channel?: string;
  q?: string;
  spam?: boolean;
  /** true: only snoozed tickets; false: only tickets not snoozed (they leave the working folders until they wake). */
  snoozed?: boolean;
  fields?: FieldFilter[];
};

const splitList = (value: string | undefined): string[] | undefined =>
  value === undefined
    ? undefined
    : value
        .split(",")
        .map((v) => v.trim())
        .filter(Boolean);

function checkValues(list: string[] | undefined, allowed: readonly string[], location: string): void {
  const bad = list?.find((v) => !allowed.includes(v));
  if (bad !== undefined) throw invalidAt(location, `${bad.slice(0, 40)} is not one of ${allowed.join(", ")}`);
}

/** Conditions for one filter set; `prefix` names where a bad value came from (query or a view). */
export async function filterConditions(
  db: Queryable,
  ctx: RequestContext,
  filter: TicketFilter,
  prefix = "query",
): Promise<SQL[]> {
  const out: SQL[] = [];
  checkValues(filter.status, TICKET_STATUSES, `${prefix}.status`);
  checkValues(filter.priority, PRIORITIES, `${prefix}.priority`);
  checkValues(filter.severity, [...SEVERITIES, "none"], `${prefix}.severity`);
  if (filter.channel !== undefined) checkValues([filter.channel], CHANNELS, `${prefix}.channel`);
  if (filter.status?.length) out.push(inArray(tickets.status, filter.status as TicketRow["status"][]));
  if (filter.priority?.length) out.push(inArray(tickets.priority, filter.priority as TicketRow["priority"][]));
  if (filter.severity?.length) {
    const named = filter.severity.filter((s) => s !== "none") as NonNullable<TicketRow["severity"]>[];
    const parts: SQL[] = [];
    if (named.length) parts.push(inArray(tickets.severity, named));
    if (filter.severity.includes("none")) parts.push(isNull(tickets.severity));
    out.push(parts.length === 1 ? parts[0]! : or(...parts)!);
  }
  if (filter.assignee !== undefined) {
    if (filter.assignee === "none") out.push(isNull(tickets.assigneeId));
    else if (filter.assignee === "me") {
      const me = actorUserId(ctx);
      out.push(me ? eq(tickets.assigneeId, me) : ticketSqlParts(db).noRowSql());
    } else out.push(eq(tickets.assigneeId, filter.assignee));
  }
  if (filter.follower !== undefined)
    out.push(followedBySql(db, ctx.workspaceId, filter.follower === "me" ? actorUserId(ctx) : filter.follower));
  if (filter.team_id !== undefined)
    out.push(filter.team_id === "none" ? isNull(tickets.teamId) : eq(tickets.teamId, filter.team_id));
  if (filter.mailbox_id !== undefined) out.push(eq(tickets.mailboxId, filter.mailbox_id));
  if (filter.contact_id !== undefined) out.push(eq(tickets.contactId, filter.contact_id));
  if (filter.channel !== undefined) out.push(eq(tickets.channel, filter.channel as TicketRow["channel"]));
  if (filter.tag !== undefined && filter.tag !== "")
    out.push(labelFilterSql("tickets", ctx.workspaceId, filter.tag, tickets.id));
  if (filter.spam !== undefined) out.push(eq(tickets.spam, filter.spam));
  if (filter.snoozed !== undefined)
    out.push(filter.snoozed ? isNotNull(tickets.snoozedUntil) : isNull(tickets.snoozedUntil));
  if (filter.q !== undefined && filter.q.trim() !== "")
    out.push(sql`${tickets.id} IN (${await matchingTicketIdsSql(db, filter.q, ctx.workspaceId)})`);
  // Wrapped so SQLite keeps it a per-row probe (primary key lookup) while walking the sort index
  // newest first, instead of turning it into an IN list of every matching value and sorting them all.
  for (const field of filter.fields ?? [])
    out.push(ticketSqlParts(db).likelySql(await fieldFilterSql(ctx, "ticket", field, tickets.id, db)));
  return out;
}

export function viewToFilter(filters: ViewFilters): TicketFilter {
  return {
    status: filters.status,
    priority: filters.priority,
    assignee: filters.assignee,
    team_id: filters.team_id,
    mailbox_id: filters.mailbox_id,
    tag: filters.tag,
    channel: filters.channel,
    q: filters.q,
    fields: filters.fields?.map((f) => ({ key: f.key, op: f.op ?? null, value: f.value })),
  };
}

/** The base scope of every list and count: this workspace, live tickets, private teams respected. */
export async function ticketScope(db: Queryable, ctx: RequestContext): Promise<SQL[]> {
  const visible = await visibleTicketsCondition(db, ctx);
  return [eq(tickets.workspaceId, ctx.workspaceId), liveTicket, ...(visible ? [visible] : [])];
}

type SortPlan = {
  name: string;
  order: "asc" | "desc";
  key: SQL;
  value: (row: TicketRow & { sort_value?: unknown }) => string | number | null;
};

async function sortPlan(
  ctx: RequestContext,
  db: Queryable,
  sort: string | undefined,
  order: "asc" | "desc" | undefined,
): Promise<SortPlan> {
  const name = sort ?? "last_message_at";
  switch (name) {
    case "last_message_at":
      return { name, order: order ?? "desc", key: sql`${tickets.lastMessageAt}`, value: (r) => r.lastMessageAt };
    case "created_at":
      return { name, order: order ?? "desc", key: sql`${tickets.createdAt}`, value: (r) => r.createdAt };
    case "priority":
      return { name, order: order ?? "desc", key: sql`${tickets.priorityRank}`, value: (r) => r.priorityRank };
    case "severity":
      return { name, order: order ?? "asc", key: sql`${tickets.severityRank}`, value: (r) => r.severityRank };
    case "due":
      return { name, order: order ?? "asc", key: sql`${tickets.dueAt}`, value: (r) => r.dueAt };
  }
  if (name.startsWith("field.")) {
    const key = await fieldSortSql(ctx, "ticket", name.slice(6), tickets.id, db);
    return { name, order: order ?? "asc", key, value: (r) => (r.sort_value as string | number | null) ?? null };
  }
  throw invalidAt("query.sort", "sort is last_message_at, created_at, priority, severity, due or field.<key>");
}

/** Rows strictly after the cursor in (key, id) order; a null key sorts lowest, as SQLite orders it. */
function afterCursor(plan: SortPlan, value: string | number | null, id: string): SQL {
  const k = plan.key;
  if (plan.order === "desc") {
    if (value === null) return sql`(${k} IS NULL AND ${tickets.id} < ${id})`;
    return sql`(${k} < ${value} OR (${k} = ${value} AND ${tickets.id} < ${id}) OR ${k} IS NULL)`;
  }
  if (value === null) return sql`((${k} IS NULL AND ${tickets.id} > ${id}) OR ${k} IS NOT NULL)`;
  return sql`(${k} > ${value} OR (${k} = ${value} AND ${tickets.id} > ${id}))`;
}

/** Filters from the query string (view_id adds the saved view's filters, combined with AND). */
export async function listFiltersOf(db: Queryable, ctx: RequestContext, query: TicketListInput): Promise<SQL[]> {
  const fromQuery: TicketFilter = {
    status: splitList(query.status),
    priority: splitList(query.priority),
    severity: splitList(query.severity),
    assignee: query.assignee,
    follower: query.follower,
    team_id: query.team_id,
    mailbox_id: query.mailbox_id,
    contact_id: query.contact_id,
    tag: query.tag,
    channel: query.channel,
    q: query.q,
    // Spam stays out of every list unless asked for, as in a mail client's inbox.
    spam: query.spam === undefined ? false : query.spam === "true",
    snoozed: query.snoozed === undefined ? undefined : query.snoozed === "true",
    fields: parseFieldFilters(query as Record<string, unknown>),
  };
  const conditions = await filterConditions(db, ctx, fromQuery);
  if (query.view_id !== undefined) {
    const view = await findVisibleView(db, ctx, query.view_id);
    conditions.push(...(await filterConditions(db, ctx, viewToFilter(view.filters), "view.filters")));
  }
  return conditions;
}

/** The list query, unexecuted (the benchmark prints its plan); `plan` says how to build the next cursor. */
export async function buildTicketListQuery(
  db: Queryable,
  ctx: RequestContext,
  query: TicketListInput,
  extra: SQL[] = [],
) {
  const plan = await sortPlan(ctx, db, query.sort, query.order);
  const conditions = [...(await ticketScope(db, ctx)), ...(await listFiltersOf(db, ctx, query)), ...extra];
  const cursor = decodeCursor(query.cursor, 4);
  if (cursor) {
    const [sortName, order, value, id] = cursor;
    if (sortName !== plan.name || order !== plan.order || typeof id !== "string") {
      throw invalidAt("query.cursor", "the cursor belongs to another sort order");
    }
    conditions.push(afterCursor(plan, value ?? null, id));
  }
  const direction = plan.order === "desc" ? desc : asc;
  const select = db
    .select({ ticket: tickets, sortValue: sql<string | number | null>`${plan.key}` })
    .from(tickets)
    .where(and(...conditions))
    .orderBy(ticketSqlParts(db).orderBySql(plan.key, plan.order), direction(tickets.id))
    .limit(query.limit + 1);
  return { select, plan };
}

/** GET /v1/tickets: keyset pages that never repeat or skip a ticket whose sort key did not change. */
export async function listTickets(
  db: Queryable,
  ctx: RequestContext,
  query: TicketListInput,
  extra: SQL[] = [],
): Promise<Page<TicketJson>> {
  const { select, plan } = await buildTicketListQuery(db, ctx, query, extra);
  const rows = (await select).map((r) => ({ ...r.ticket, sort_value: r.sortValue }));
  const page = await pageOf(
    rows,
    query.limit,
    (row) => row,
    (row) => [plan.name, plan.order, (row.sort_value as string | number | null) ?? null, row.id],
  );
  return { data: await presentTickets(db, page.data), next_cursor: page.next_cursor };
}

/**
 * The list with a word search on a read pool worker: `q` may match words of every message of the
 * workspace. It never needs the caller's same-turn writes (a reader sees committed data only).
 * `contactId` stands for a contact page's condition, as SQL does not cross threads.
 */
export const ticketListRead = defineRead(
  "tickets.list",
  async (db, p: { ctx: RequestContext; query: TicketListInput; contactId?: string }) =>
    await listTickets(db, p.ctx, p.query, p.contactId === undefined ? [] : [eq(tickets.contactId, p.contactId)]),
);

const searches = (q: string | undefined) => q !== undefined && q.trim() !== "";

/**
 * GET /v1/tickets and a contact's tickets: with `q` (given, or from the view) the read goes to the
 * pool; without, it is an indexed page read that stays on this thread.
 */
export async function readTicketList(
  deps: { db: Queryable; reads: ReadPool },
  ctx: RequestContext,
  query: TicketListInput,
  contactId?: string,
): Promise<Page<TicketJson>> {
  const broad =
    searches(query.q) ||
    (query.view_id !== undefined && searches((await findVisibleView(deps.db, ctx, query.view_id)).filters.q));
  if (broad) return await deps.reads.run(ticketListRead, ctx.workspaceId, { ctx, query, contactId });
  return await listTickets(deps.db, ctx, query, contactId === undefined ? [] : [eq(tickets.contactId, contactId)]);
}

/**
 * Every visible view's count on a read pool worker: each count walks the tickets its filters match
 * (and a `q` the search index), which grows with the workspace, and the inbox asks on every load.
 */
export const viewCountsRead = defineRead(
  "tickets.view_counts",
  async (db, p: { ctx: RequestContext }) => await viewCounts(db, p.ctx),
);

/**
 * GET /v1/tickets/counts' `views`: nothing to count (no visible view) never wakes a worker. Counts
 * the pool cannot give in time (past its budget, or its queue full) are left out rather than
 * failing the inbox's other counts: a missing count shows none, a wrong one would mislead.
 */
export async function readViewCounts(
  deps: { db: Queryable; reads: ReadPool },
  ctx: RequestContext,
): Promise<Record<string, number>> {
  if ((await listVisibleViews(deps.db, ctx)).length === 0) return {};
  try {
    return await deps.reads.run(viewCountsRead, ctx.workspaceId, { ctx });
  } catch (error) {
    if (error instanceof DeskError && (error.status === 503 || error.status === 429)) return {};
    throw error;
  }
}

/** Number of live tickets per visible view (same filters as the view's list). */
export async function viewCounts(db: Queryable, ctx: RequestContext): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const view of await listVisibleViews(db, ctx)) {
    try {
      const conditions = [
        ...(await ticketScope(db, ctx)),
        eq(tickets.spam, false),
        ...(await filterConditions(db, ctx, viewToFilter(view.filters), "view.filters")),
      ];
      out[view.id] =
        first(
          await db
            .select({ n: sql<number>`count(*)` })
            .from(tickets)
            .where(and(...conditions))
            .limit(1),
        )?.n ?? 0;
    } catch {
      // A view naming a field that was deleted since: it counts nothing rather than failing the inbox.
      out[view.id] = 0;
    }
  }
  return out;
}
