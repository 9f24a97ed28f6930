import { asc, eq, sql } from "drizzle-orm";
import type { RequestContext } from "../auth/context";
import { actorUserId } from "../auth/context";
import type { Queryable, Tx } from "../db/database";
import { rowsOf } from "../db/store";
import { transact } from "../db/tx";
import type { Deps } from "../deps";
import { invalidAt } from "../lib/errors";
import { emitMessageCreated, type AddMessageInput, type MessageOrigin } from "./messages.service";
import type { MessageRow } from "./messages.table";
import { findVisibleTicket, hiddenTeamIds, reloadTicket } from "./tickets.repo";
import type { TicketPatch } from "./tickets.schemas";
import { activities, tickets, type ActivityRow, type TicketRow } from "./tickets.table";
import { scheduleWake } from "./tickets.jobs";
import { ticketSqlParts } from "./tickets.statements";
import { emitTicketDeleted, emitTicketUpdated } from "./tickets.timeline";
import { applyTicketPatch, writeMessage, type PatchOptions } from "./tickets.write";

export const getTicket = async (db: Queryable, ctx: RequestContext, ref: string): Promise<TicketRow> =>
  await findVisibleTicket(db, ctx, ref);

/**
 * Changes one ticket. `enforceRequired: false` is for automations (SPEC.md Ticket status: required
 * fields do not block them); every person's and key's change keeps the rule.
 */
/** Applies a patch to a visible ticket in one transaction and publishes `ticket.updated` when it changed. */
async function patchTicket(
  ctx: RequestContext,
  ref: string,
  patch: TicketPatch,
  deps: Deps,
  options: PatchOptions,
): Promise<TicketRow> {
  const now = deps.clock.now().toISOString();
  return await transact(deps.db, async (tx) => {
    const current = await findVisibleTicket(tx, ctx, ref, { includeMerged: false });
    const outcome = await applyTicketPatch(tx, ctx, current, patch, now, options, deps.ports);
    if (outcome.wakeAt) await scheduleWake(tx, outcome.row, outcome.wakeAt);
    if (outcome.changes.length > 0) await emitTicketUpdated(tx, outcome.row, outcome.changes, outcome.assigneeChanged);
    return outcome.row;
  });
}

/**
 * How a change is attributed and checked: features acting for someone (AI decisions, the
 * assistant's approved changes) name the actor and what to add to each activity's data.
 */
export type TicketChangeOptions = Omit<PatchOptions, "enforceRequired" | "statusReason"> & {
  enforceRequired?: boolean;
};

export async function updateTicket(
  ctx: RequestContext,
  ref: string,
  patch: TicketPatch,
  deps: Deps,
  options: TicketChangeOptions = {},
): Promise<TicketRow> {
  return await patchTicket(ctx, ref, patch, deps, { ...options, enforceRequired: options.enforceRequired ?? true });
}

/**
 * Adds a reply or note to a ticket (the API route, inbound mail, the widget, the auto-reply). A
 * ticket merged away forwards to the ticket it was merged into.
 */
export async function addMessage(
  ctx: RequestContext,
  ticketIdOrNumber: string,
  input: AddMessageInput,
  deps: Deps,
  options: { origin?: MessageOrigin } = {},
): Promise<MessageRow> {
  const now = deps.clock.now().toISOString();
  return await transact(deps.db, async (tx) => {
    let ticket = await findVisibleTicket(tx, ctx, ticketIdOrNumber);
    for (let hops = 0; ticket.mergedIntoId && hops < 10; hops++) ticket = await reloadTicket(tx, ticket.mergedIntoId);
    const written = await writeMessage(tx, ctx, ticket, input, now, deps.ports);
    await emitMessageCreated(
      tx,
      written.ticket,
      written.message,
      deps,
      { attachments: written.attachments },
      options.origin,
    );
    await emitTicketUpdated(tx, written.ticket, written.changes, written.assigneeChanged);
    return written.message;
  });
}

async function softDelete(tx: Tx, ticket: TicketRow, now: string): Promise<void> {
  await tx.update(tickets).set({ deletedAt: now, updatedAt: now }).where(eq(tickets.id, ticket.id));
  await emitTicketDeleted(tx, ticket);
}

export async function deleteTicket(ctx: RequestContext, ref: string, deps: Deps): Promise<void> {
  const now = deps.clock.now().toISOString();
  await transact(deps.db, async (tx) => await softDelete(tx, await findVisibleTicket(tx, ctx, ref), now));
}

/**
 * Applies one patch (or a delete) to many tickets atomically: any invalid id or refused change
 * answers 422 and changes nothing. Ids the caller cannot see count as invalid.
 */
export async function bulkUpdateTickets(
  ctx: RequestContext,
  input: { ids: string[]; patch?: TicketPatch; delete?: true },
  deps: Deps,
): Promise<{ updated: number; ids: string[] }> {
  const now = deps.clock.now().toISOString();
  return await transact(deps.db, async (tx) => {
    const done: string[] = [];
    const seen = new Set<string>();
    for (const [index, ref] of input.ids.entries()) {
      let ticket: TicketRow;
      try {
        ticket = await findVisibleTicket(tx, ctx, ref, { includeMerged: false });
      } catch {
        throw invalidAt(`body.ids.${index}`, "No such ticket.");
      }
      if (seen.has(ticket.id)) continue;
      seen.add(ticket.id);
      if (input.delete) {
        await softDelete(tx, ticket, now);
        done.push(ticket.id);
        continue;
      }
      const outcome = await applyTicketPatch(
        tx,
        ctx,
        ticket,
        input.patch ?? {},
        now,
        { enforceRequired: true },
        deps.ports,
      );
      if (outcome.wakeAt) await scheduleWake(tx, outcome.row, outcome.wakeAt);
      if (outcome.changes.length > 0) {
        await emitTicketUpdated(tx, outcome.row, outcome.changes, outcome.assigneeChanged);
        done.push(ticket.id);
      }
    }
    return { updated: done.length, ids: done };
  });
}

export async function listActivities(db: Queryable, ctx: RequestContext, ref: string): Promise<ActivityRow[]> {
  const ticket = await findVisibleTicket(db, ctx, ref);
  return await db
    .select()
    .from(activities)
    .where(eq(activities.ticketId, ticket.id))
    .orderBy(asc(activities.createdAt), asc(activities.id));
}

export type StatusCounts = {
  unassigned: number;
  mine: number;
  open: number;
  pending: number;
  on_hold: number;
  solved: number;
  snoozed: number;
  spam: number;
};

/**
 * Inbox counts from the trigger-kept `ticket_counts` buckets (migrations/custom/0102, 0104): live
 * tickets; statuses count non-spam tickets; unassigned and mine count open, pending and on_hold.
 * Snoozed tickets count in `snoozed` only, not in the working folders (unassigned, mine, open,
 * pending, on_hold), which they leave until they wake. Buckets of hidden private teams are left out.
 */
export async function ticketCounts(db: Queryable, ctx: RequestContext): Promise<StatusCounts> {
  const me = actorUserId(ctx) ?? "\u0000none";
  const hidden = await hiddenTeamIds(db, ctx);
  const visible = hidden.length
    ? sql`AND team_id NOT IN (${sql.join(
        hidden.map((id) => sql`${id}`),
        sql`, `,
      )})`
    : sql``;
  // The buckets' flags are 0/1 on SQLite and boolean on PostgreSQL.
  const flag = ticketSqlParts(db).bucketFlagSql;
  const [notSpam, isSpam] = [flag("spam", false), flag("spam", true)];
  const working = sql`${notSpam} AND ${flag("snoozed", false)}`;
  const active = sql`${working} AND status IN ('open', 'pending', 'on_hold')`;
  const [row] = await rowsOf<Record<keyof StatusCounts, number | null>>(
    db,
    sql`SELECT
      sum(CASE WHEN ${active} AND assignee_id = '' THEN n END) AS unassigned,
      sum(CASE WHEN ${active} AND assignee_id = ${me} THEN n END) AS mine,
      sum(CASE WHEN ${working} AND status = 'open' THEN n END) AS open,
      sum(CASE WHEN ${working} AND status = 'pending' THEN n END) AS pending,
      sum(CASE WHEN ${working} AND status = 'on_hold' THEN n END) AS on_hold,
      sum(CASE WHEN ${notSpam} AND status = 'solved' THEN n END) AS solved,
      sum(CASE WHEN ${notSpam} AND ${flag("snoozed", true)} THEN n END) AS snoozed,
      sum(CASE WHEN ${isSpam} THEN n END) AS spam
    FROM ticket_counts WHERE workspace_id = ${ctx.workspaceId} ${visible}`,
  );
  const value = (key: keyof StatusCounts) => row?.[key] ?? 0;
  return {
    unassigned: value("unassigned"),
    mine: value("mine"),
    open: value("open"),
    pending: value("pending"),
    on_hold: value("on_hold"),
    solved: value("solved"),
    snoozed: value("snoozed"),
    spam: value("spam"),
  };
}
