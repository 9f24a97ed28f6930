import { first } from "../db/store";
import { and, desc, eq, gte, isNull, lte, ne, notInArray, or, sql, type SQL } from "drizzle-orm";
import type { RequestContext } from "../auth/context";
import type { Queryable } from "../db/database";
import { notFound } from "../lib/errors";
import { isUuid } from "../lib/ids";
import { privateTeamOfWorkspace, privateTeamsOutside } from "../teams/teams.public";
import { ticketReadStatements, visibleTicketRow } from "./tickets.statements";
import { tickets, type TicketRow } from "./tickets.table";

/** Live tickets: neither deleted nor merged away (matches the partial indexes' WHERE). */
export const liveTicket = sql`${tickets.deletedAt} IS NULL AND ${tickets.mergedIntoId} IS NULL`;

/** Private teams of the workspace whose tickets this caller may not see. */
export async function hiddenTeamIds(db: Queryable, ctx: RequestContext): Promise<string[]> {
  if (ctx.visibleTeams === "all") return [];
  return await privateTeamsOutside(db, ctx.workspaceId, ctx.visibleTeams);
}

/** The private-team filter as a query condition: hidden tickets are simply not found. */
export async function visibleTicketsCondition(db: Queryable, ctx: RequestContext): Promise<SQL | undefined> {
  const hidden = await hiddenTeamIds(db, ctx);
  if (hidden.length === 0) return undefined;
  return or(isNull(tickets.teamId), notInArray(tickets.teamId, hidden));
}

/** Parses a ticket reference: UUID, number, `#12` or `%2312`. */
export function parseTicketRef(ref: string): { id: string } | { number: number } | null {
  let value = ref.trim();
  if (value.startsWith("%23")) value = value.slice(3);
  else if (value.startsWith("#")) value = value.slice(1);
  if (/^\d{1,15}$/.test(value)) return { number: Number(value) };
  if (isUuid(value)) return { id: value.toLowerCase() };
  return null;
}

/** Finds a ticket the caller may see (deleted ones excluded); 404 otherwise. Merged-away tickets stay readable. */
export async function findVisibleTicket(
  db: Queryable,
  ctx: RequestContext,
  ref: string,
  options: { includeMerged?: boolean } = {},
): Promise<TicketRow> {
  const parsed = parseTicketRef(ref);
  if (!parsed) throw notFound("Ticket");
  const row = await visibleTicketRow(db, ctx.workspaceId, parsed, await hiddenTeamIds(db, ctx));
  if (!row || (options.includeMerged === false && row.mergedIntoId !== null)) throw notFound("Ticket");
  return row;
}

/** The private team a ticket belongs to, if its team is private (its events then go to the team topic). */
export async function privateTeamOf(db: Queryable, workspaceId: string, teamId: string | null): Promise<string | null> {
  if (!teamId) return null;
  return (await privateTeamOfWorkspace(db, workspaceId, teamId)) ?? null;
}

export async function reloadTicket(db: Queryable, id: string): Promise<TicketRow> {
  // Asked only with the id of a ticket the caller has just read or written in this change.
  return (await ticketReadStatements(db).byId(id))!;
}

/** A live ticket (not deleted, not merged away) whose snooze has run out by `now`. */
export async function dueSnoozedTicket(db: Queryable, id: string, now: string): Promise<TicketRow | undefined> {
  return first(
    await db
      .select()
      .from(tickets)
      .where(
        and(
          eq(tickets.id, id),
          isNull(tickets.deletedAt),
          isNull(tickets.mergedIntoId),
          lte(tickets.snoozedUntil, now),
        ),
      )
      .limit(1),
  );
}

/** A ticket of the workspace by id, whatever its state (deleted and merged ones too). */
export const ticketOfWorkspace = async (
  db: Queryable,
  workspaceId: string,
  id: string,
): Promise<TicketRow | undefined> => await ticketReadStatements(db).ofWorkspace(workspaceId, id);

/**
 * A contact's live open or pending tickets with activity since a time, newest first (inbound mail
 * threads an Outlook reply that lost its headers onto one of them by subject).
 */
export async function openTicketsOfContactSince(
  db: Queryable,
  workspaceId: string,
  contactId: string,
  since: string,
  limit: number,
): Promise<TicketRow[]> {
  return await db
    .select()
    .from(tickets)
    .where(
      and(
        eq(tickets.workspaceId, workspaceId),
        eq(tickets.contactId, contactId),
        or(eq(tickets.status, "open"), eq(tickets.status, "pending")),
        gte(tickets.lastMessageAt, since),
        liveTicket,
      ),
    )
    .orderBy(desc(tickets.lastMessageAt))
    .limit(limit);
}

/** A contact's other live tickets the caller may see, newest first (AI drafts read them for context). */
export async function recentTicketsOfContact(
  db: Queryable,
  ctx: RequestContext,
  contactId: string,
  exceptTicketId: string,
  limit = 5,
): Promise<TicketRow[]> {
  return await db
    .select()
    .from(tickets)
    .where(
      and(
        eq(tickets.workspaceId, ctx.workspaceId),
        eq(tickets.contactId, contactId),
        ne(tickets.id, exceptTicketId),
        liveTicket,
        await visibleTicketsCondition(db, ctx),
      ),
    )
    .orderBy(desc(tickets.lastMessageAt))
    .limit(limit);
}
