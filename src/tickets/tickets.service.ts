import { and, asc, eq, isNull, sql } from "drizzle-orm";
import type { RequestContext } from "../auth/context";
import { actorUserId } from "../auth/context";
import { contacts } from "../contacts/contacts.table";
import { findOrCreateContactByEmail } from "../contacts/contacts.service";
import type { Queryable, Tx } from "../db/database";
import { withTx } from "../db/tx";
import type { Deps } from "../deps";
import { invalidAt, notFound } from "../http/errors";
import { newId } from "../lib/ids";
import type { AddMessageInput } from "../messages/messages.service";
import { emitMessageCreated, writeMessage } from "../messages/messages.service";
import { applyFieldWrite } from "../custom-fields/fields.apply";
import { applyLabelWrite } from "../labels/labels.apply";
import { findVisibleTicket, hiddenTeamIds } from "./tickets.repo";
import type { TicketPatch } from "./tickets.schemas";
import { activities, tickets, type ActivityRow, type Channel, type Priority, type Severity, type TicketRow, type TicketStatus } from "./tickets.table";
import { emitTicketCreated, emitTicketDeleted, emitTicketUpdated } from "./tickets.timeline";
import { applyTicketPatch, assertAssignable, assertMailbox, assertSolvable, assertTeam } from "./tickets.write";

export type CreateTicketInput = {
  subject: string;
  contact_id?: string;
  contact?: { email: string; name?: string | null };
  channel?: Channel;
  mailbox_id?: string | null;
  body_html?: string;
  kind?: "reply" | "note";
  priority?: Priority;
  severity?: Severity | null;
  assignee_id?: string | null;
  team_id?: string | null;
  tags?: string[];
  fields?: Record<string, unknown>;
  status?: TicketStatus;
  attachment_ids?: string[];
  /** Internal members for inbound mail and the widget: the first message's author and email data. */
  body_text?: string;
  direction?: AddMessageInput["direction"];
  author?: AddMessageInput["author"];
  email?: AddMessageInput["email"];
};

function nextTicketNumber(tx: Tx, workspaceId: string): number {
  const [row] = tx.all<{ ticket_number_seq: number }>(
    sql`UPDATE workspaces SET ticket_number_seq = ticket_number_seq + 1 WHERE id = ${workspaceId} RETURNING ticket_number_seq`,
  );
  if (!row) throw notFound("Workspace");
  return row.ticket_number_seq;
}

function liveContactId(db: Queryable, workspaceId: string, contactId: string): string {
  const row = db
    .select({ id: contacts.id })
    .from(contacts)
    .where(and(eq(contacts.id, contactId), eq(contacts.workspaceId, workspaceId), isNull(contacts.deletedAt)))
    .get();
  if (!row) throw invalidAt("body.contact_id", "No such contact in this workspace.");
  return row.id;
}

/**
 * Creates a ticket (optionally with its first message) in one transaction. Events in order:
 * contact.created (when the contact is new), tag.created (new labels), ticket.created, message.created.
 */
export function createTicket(ctx: RequestContext, input: CreateTicketInput, deps: Deps): TicketRow {
  const now = deps.clock.now().toISOString();
  return withTx(deps.db, (tx) => {
    if (input.contact_id !== undefined && input.contact !== undefined) throw invalidAt("body.contact", "Send contact_id or contact, not both.");
    const contactId =
      input.contact_id !== undefined
        ? liveContactId(tx, ctx.workspaceId, input.contact_id)
        : input.contact
          ? findOrCreateContactByEmail(tx, ctx, { email: input.contact.email, name: input.contact.name ?? null }).id
          : null;
    if (input.assignee_id) assertAssignable(tx, ctx.workspaceId, input.assignee_id, "body.assignee_id");
    if (input.team_id) assertTeam(tx, ctx, input.team_id, "body.team_id");
    if (input.mailbox_id) assertMailbox(tx, ctx.workspaceId, input.mailbox_id, "body.mailbox_id");
    const status = input.status ?? "open";
    let row = tx
      .insert(tickets)
      .values({
        id: newId(),
        workspaceId: ctx.workspaceId,
        number: nextTicketNumber(tx, ctx.workspaceId),
        subject: input.subject,
        status,
        priority: input.priority ?? "normal",
        severity: input.severity ?? null,
        channel: input.channel ?? "api",
        mailboxId: input.mailbox_id ?? null,
        contactId,
        assigneeId: input.assignee_id ?? null,
        teamId: input.team_id ?? null,
        solvedAt: status === "solved" || status === "closed" ? now : null,
        lastMessageAt: now,
        custom: {},
        createdAt: now,
        updatedAt: now,
      })
      .returning()
      .get();
    // Labels and values given at creation are part of it: no activities of their own.
    if (input.tags?.length) applyLabelWrite(tx, ctx, "tickets", row.id, { tags: input.tags });
    if (input.fields && Object.keys(input.fields).length) applyFieldWrite(tx, ctx, "ticket", row.id, input.fields);
    if ((status === "solved" || status === "closed") && !input.author) assertSolvable(tx, ctx.workspaceId, row.id);
    const written =
      input.body_html !== undefined
        ? writeMessage(
            tx,
            ctx,
            row,
            {
              kind: input.kind ?? "reply",
              body_html: input.body_html,
              body_text: input.body_text,
              attachment_ids: input.attachment_ids,
              direction: input.direction,
              author: input.author,
              email: input.email,
            },
            now,
            { opensTicket: true },
          )
        : null;
    if (written && input.direction === "inbound" && written.ticket.status !== status) {
      // The first customer message must not reopen a ticket created solved on purpose.
      row = tx.update(tickets).set({ status }).where(eq(tickets.id, row.id)).returning().get()!;
    } else if (written) row = written.ticket;
    else row = tx.select().from(tickets).where(eq(tickets.id, row.id)).get()!;
    emitTicketCreated(tx, row);
    if (written) emitMessageCreated(tx, row, written.message, deps);
    return row;
  });
}

export const getTicket = (db: Queryable, ctx: RequestContext, ref: string): TicketRow => findVisibleTicket(db, ctx, ref);

export function updateTicket(ctx: RequestContext, ref: string, patch: TicketPatch, deps: Deps): TicketRow {
  const now = deps.clock.now().toISOString();
  return withTx(deps.db, (tx) => {
    const current = findVisibleTicket(tx, ctx, ref, { includeMerged: false });
    const outcome = applyTicketPatch(tx, ctx, current, patch, now, { enforceRequired: true });
    if (outcome.changes.length > 0) emitTicketUpdated(tx, outcome.row, outcome.changes, outcome.assigneeChanged);
    return outcome.row;
  });
}

function softDelete(tx: Tx, ticket: TicketRow, now: string): void {
  tx.update(tickets).set({ deletedAt: now, updatedAt: now }).where(eq(tickets.id, ticket.id)).run();
  emitTicketDeleted(tx, ticket);
}

export function deleteTicket(ctx: RequestContext, ref: string, deps: Deps): void {
  const now = deps.clock.now().toISOString();
  withTx(deps.db, (tx) => softDelete(tx, findVisibleTicket(tx, ctx, ref), now));
}

/**
 * Applies one patch (or a delete) to many tickets atomically: any invalid id or refused change
 * answers 422 and changes nothing. Ids the caller cannot see count as invalid.
 */
export function bulkUpdateTickets(ctx: RequestContext, input: { ids: string[]; patch?: TicketPatch; delete?: true }, deps: Deps): { updated: number; ids: string[] } {
  const now = deps.clock.now().toISOString();
  return withTx(deps.db, (tx) => {
    const done: string[] = [];
    const seen = new Set<string>();
    input.ids.forEach((ref, index) => {
      let ticket: TicketRow;
      try {
        ticket = findVisibleTicket(tx, ctx, ref, { includeMerged: false });
      } catch {
        throw invalidAt(`body.ids.${index}`, "No such ticket.");
      }
      if (seen.has(ticket.id)) return;
      seen.add(ticket.id);
      if (input.delete) {
        softDelete(tx, ticket, now);
        done.push(ticket.id);
        return;
      }
      const outcome = applyTicketPatch(tx, ctx, ticket, input.patch ?? {}, now, { enforceRequired: true });
      if (outcome.changes.length > 0) {
        emitTicketUpdated(tx, outcome.row, outcome.changes, outcome.assigneeChanged);
        done.push(ticket.id);
      }
    });
    return { updated: done.length, ids: done };
  });
}

export function listActivities(db: Queryable, ctx: RequestContext, ref: string): ActivityRow[] {
  const ticket = findVisibleTicket(db, ctx, ref);
  return db.select().from(activities).where(eq(activities.ticketId, ticket.id)).orderBy(asc(activities.createdAt), asc(activities.id)).all();
}

export type StatusCounts = { unassigned: number; mine: number; open: number; pending: number; on_hold: number; solved: number; spam: number };

/**
 * Inbox counts from the trigger-kept `ticket_counts` buckets (migrations/custom/0102): live tickets;
 * statuses count non-spam tickets; unassigned and mine count open, pending and on_hold.
 * Buckets of private teams the caller may not see are left out.
 */
export function ticketCounts(db: Queryable, ctx: RequestContext): StatusCounts {
  const me = actorUserId(ctx) ?? "\u0000none";
  const hidden = hiddenTeamIds(db, ctx);
  const visible = hidden.length ? sql`AND team_id NOT IN (${sql.join(hidden.map((id) => sql`${id}`), sql`, `)})` : sql``;
  const active = sql`spam = 0 AND status IN ('open', 'pending', 'on_hold')`;
  const [row] = db.all<Record<keyof StatusCounts, number | null>>(sql`SELECT
      sum(CASE WHEN ${active} AND assignee_id = '' THEN n END) AS unassigned,
      sum(CASE WHEN ${active} AND assignee_id = ${me} THEN n END) AS mine,
      sum(CASE WHEN spam = 0 AND status = 'open' THEN n END) AS open,
      sum(CASE WHEN spam = 0 AND status = 'pending' THEN n END) AS pending,
      sum(CASE WHEN spam = 0 AND status = 'on_hold' THEN n END) AS on_hold,
      sum(CASE WHEN spam = 0 AND status = 'solved' THEN n END) AS solved,
      sum(CASE WHEN spam = 1 THEN n END) AS spam
    FROM ticket_counts WHERE workspace_id = ${ctx.workspaceId} ${visible}`);
  const value = (key: keyof StatusCounts) => row?.[key] ?? 0;
  return { unassigned: value("unassigned"), mine: value("mine"), open: value("open"), pending: value("pending"), on_hold: value("on_hold"), solved: value("solved"), spam: value("spam") };
}

