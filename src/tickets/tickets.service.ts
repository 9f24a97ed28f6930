import { asc, eq, sql } from "drizzle-orm";
import type { RequestContext } from "../auth/context";
import { actorUserId } from "../auth/context";
import type { AttachmentRow } from "../attachments/attachments.public";
import { presentContactRef } from "../contacts/contacts.public";
import { findOrCreateContactByEmail } from "../contacts/contacts.public";
import { findMailbox, firstMailboxOf } from "../mailboxes/mailboxes.public";
import type { Queryable, Tx } from "../db/database";
import { withTx } from "../db/tx";
import type { Deps } from "../deps";
import { invalidAt, notFound } from "../lib/errors";
import { newId } from "../lib/ids";
import {
  composeMessage,
  emitMessageCreated,
  insertComposedMessage,
  type AddMessageInput,
  type MessageOrigin,
} from "./messages.service";
import type { MessageRow } from "./messages.table";
import { applyFieldWriteWithValues } from "../custom-fields/fields.public";
import { applyLabelWrite } from "../labels/labels.public";
import type { ContactRefJson, KnownTicketParts } from "./tickets.present";
import { findVisibleTicket, hiddenTeamIds, reloadTicket } from "./tickets.repo";
import { derivedTicketColumns, insertTicketRow, liveContactRefRow, nextTicketNumberValue } from "./tickets.statements";
import type { TicketPatch } from "./tickets.schemas";
import {
  activities,
  tickets,
  type ActivityRow,
  type Channel,
  type Priority,
  type Severity,
  type TicketRow,
  type TicketStatus,
} from "./tickets.table";
import { emitTicketCreated, emitTicketDeleted, emitTicketUpdated } from "./tickets.timeline";
import {
  applyTicketPatch,
  assertAssignable,
  assertMailbox,
  assertSolvable,
  assertTeam,
  messageCounters,
  wakeDueTicket,
  writeMessage,
} from "./tickets.write";

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
  /** Plain text: the first message itself when body_html is absent, else the text stored beside it. */
  body_text?: string;
  /** Internal members for inbound mail and the widget: the first message's author and email data. */
  body_html_sanitized?: AddMessageInput["body_html_sanitized"];
  direction?: AddMessageInput["direction"];
  author?: AddMessageInput["author"];
  email?: AddMessageInput["email"];
};

function nextTicketNumber(tx: Tx, workspaceId: string): number {
  const number = nextTicketNumberValue(tx, workspaceId);
  if (number === undefined) throw notFound("Workspace");
  return number;
}

function liveContactRef(db: Queryable, workspaceId: string, contactId: string): ContactRefJson {
  const row = liveContactRefRow(db, workspaceId, contactId);
  if (!row) throw invalidAt("body.contact_id", "No such contact in this workspace.");
  return presentContactRef(row);
}

/**
 * The first message can be stored with the ticket's own insert (its counters folded in) unless a
 * customer's message would move the status: reopening a ticket created in another status, or
 * noting a failed sender check on the timeline. Those take the general path through writeMessage.
 */
function firstMessageFoldsIn(input: CreateTicketInput, status: TicketStatus): boolean {
  const customerReply = (input.kind ?? "reply") === "reply" && input.direction === "inbound";
  return !customerReply || (status === "open" && !input.email?.auth_failed);
}

export type CreatedTicket = { ticket: TicketRow; message: MessageRow | null };

/**
 * An email ticket created through the API is mailed from a mailbox: the one named, else the
 * workspace's first (its default). Without one its replies would stay unsent and nobody would be
 * told, so such a request is refused instead (422 at body.mailbox_id).
 */
export function withSendingMailbox(db: Queryable, ctx: RequestContext, input: CreateTicketInput): CreateTicketInput {
  if (input.channel !== "email") return input;
  const mailbox = input.mailbox_id
    ? findMailbox(db, ctx.workspaceId, input.mailbox_id)
    : firstMailboxOf(db, ctx.workspaceId);
  if (!mailbox)
    throw invalidAt(
      "body.mailbox_id",
      input.mailbox_id
        ? "No such mailbox in this workspace."
        : "No mailbox to send from: add one under Settings → Mailboxes, or create the ticket with channel api.",
    );
  if (mailbox.status === "disabled") throw invalidAt("body.mailbox_id", "This mailbox is disabled.");
  return { ...input, mailbox_id: mailbox.id };
}

/**
 * Creates a ticket (optionally with its first message) in one transaction. Events in order:
 * contact.created (when the contact is new), tag.created (new labels), ticket.created, message.created.
 */
export function createTicket(ctx: RequestContext, input: CreateTicketInput, deps: Deps): TicketRow {
  return createTicketWithMessage(ctx, input, deps).ticket;
}

/**
 * createTicket answering the first message too (inbound mail records its id). The rows are built
 * in JS and written with prepared statements; the events are presented from what is in hand.
 */
export function createTicketWithMessage(
  ctx: RequestContext,
  input: CreateTicketInput,
  deps: Deps,
  /** The contact of `contact_id` when the caller found it in this same transaction (skips the look-up). */
  given: { contact?: ContactRefJson } = {},
): CreatedTicket {
  const now = deps.clock.now().toISOString();
  return withTx(deps.db, (tx) => {
    if (input.contact_id !== undefined && input.contact !== undefined)
      throw invalidAt("body.contact", "Send contact_id or contact, not both.");
    const contact: ContactRefJson | null =
      input.contact_id !== undefined
        ? given.contact?.id === input.contact_id
          ? given.contact
          : liveContactRef(tx, ctx.workspaceId, input.contact_id)
        : input.contact
          ? presentContactRef(
              findOrCreateContactByEmail(tx, ctx, { email: input.contact.email, name: input.contact.name ?? null }),
            )
          : null;
    if (input.assignee_id) assertAssignable(tx, ctx.workspaceId, input.assignee_id, "body.assignee_id");
    if (input.team_id) assertTeam(tx, ctx, input.team_id, "body.team_id");
    if (input.mailbox_id) assertMailbox(tx, ctx.workspaceId, input.mailbox_id, "body.mailbox_id");
    const status = input.status ?? "open";
    const base = {
      id: newId(),
      workspaceId: ctx.workspaceId,
      number: nextTicketNumber(tx, ctx.workspaceId),
      subject: input.subject,
      status,
      priority: input.priority ?? "normal",
      severity: input.severity ?? null,
      channel: input.channel ?? "api",
      mailboxId: input.mailbox_id ?? null,
      contactId: contact?.id ?? null,
      assigneeId: input.assignee_id ?? null,
      teamId: input.team_id ?? null,
      spam: false,
      snoozedUntil: null,
      solvedAt: status === "solved" || status === "closed" ? now : null,
      firstRespondedAt: null,
      lastMessageAt: now,
      lastCustomerMessageAt: null,
      lastMessagePreview: "",
      messageCount: 0,
      csat: null,
      custom: {},
      sla: null,
      mergedIntoId: null,
      deletedAt: null,
      createdAt: now,
      updatedAt: now,
    } satisfies Omit<TicketRow, "priorityRank" | "severityRank" | "dueAt">;
    let row: TicketRow = { ...base, ...derivedTicketColumns(base) };
    const messageInput: AddMessageInput | null =
      input.body_html !== undefined || input.body_text !== undefined
        ? {
            kind: input.kind ?? "reply",
            body_html: input.body_html,
            body_html_sanitized: input.body_html_sanitized,
            body_text: input.body_text,
            attachment_ids: input.attachment_ids,
            direction: input.direction,
            author: input.author,
            email: input.email,
          }
        : null;
    // The message row is built first so the ticket's insert carries the counters it moves.
    const composed =
      messageInput && firstMessageFoldsIn(input, status)
        ? composeMessage(ctx, row, messageInput, now, contact?.email ?? null)
        : null;
    if (composed) row = { ...row, ...messageCounters(row, composed, now, true).counters };
    insertTicketRow(tx, row);
    // Labels and values given at creation are part of it: no activities of their own.
    const known: KnownTicketParts = { contact, tags: [], fields: {} };
    if (input.tags?.length)
      known.tags = applyLabelWrite(tx, ctx, "tickets", row.id, { tags: input.tags }).tags ?? undefined;
    if (input.fields && Object.keys(input.fields).length)
      known.fields = applyFieldWriteWithValues(tx, ctx, "ticket", row.id, input.fields).values ?? undefined;
    if ((status === "solved" || status === "closed") && !input.author) assertSolvable(tx, ctx.workspaceId, row.id);
    let message: MessageRow | null = null;
    let attachments: AttachmentRow[] = [];
    if (composed) {
      message = composed;
      attachments = insertComposedMessage(tx, message, input.attachment_ids);
    } else if (messageInput) {
      const written = writeMessage(tx, ctx, row, messageInput, now, {
        opensTicket: true,
        contactEmail: contact?.email ?? null,
      });
      message = written.message;
      attachments = written.attachments;
      row = written.ticket;
      if (input.direction === "inbound" && row.status !== status) {
        // The first customer message must not reopen a ticket created solved on purpose.
        row = tx.update(tickets).set({ status }).where(eq(tickets.id, row.id)).returning().get()!;
      }
    }
    emitTicketCreated(tx, row, known);
    if (message) {
      const author = message.authorContactId && message.authorContactId === contact?.id ? contact : undefined;
      emitMessageCreated(tx, row, message, deps, { attachments, contact: author });
    }
    return { ticket: row, message };
  });
}

export const getTicket = (db: Queryable, ctx: RequestContext, ref: string): TicketRow =>
  findVisibleTicket(db, ctx, ref);

/**
 * Changes one ticket. `enforceRequired: false` is for automations (SPEC.md Ticket status: required
 * fields do not block them); every person's and key's change keeps the rule.
 */
/** Applies a patch to a visible ticket in one transaction and publishes `ticket.updated` when it changed. */
function patchTicket(
  ctx: RequestContext,
  ref: string,
  patch: TicketPatch,
  deps: Deps,
  options: Parameters<typeof applyTicketPatch>[5],
): TicketRow {
  const now = deps.clock.now().toISOString();
  return withTx(deps.db, (tx) => {
    const current = findVisibleTicket(tx, ctx, ref, { includeMerged: false });
    const outcome = applyTicketPatch(tx, ctx, current, patch, now, options);
    if (outcome.changes.length > 0) emitTicketUpdated(tx, outcome.row, outcome.changes, outcome.assigneeChanged);
    return outcome.row;
  });
}

export function updateTicket(
  ctx: RequestContext,
  ref: string,
  patch: TicketPatch,
  deps: Deps,
  options: { enforceRequired?: boolean } = {},
): TicketRow {
  return patchTicket(ctx, ref, patch, deps, { enforceRequired: options.enforceRequired ?? true });
}

/**
 * A change decided by AI (triage, an automation's ai_triage): applied like a PATCH, its activities
 * attributed to actor `ai` with `{ via, model, confidence }` in their data, and `ticket.updated`
 * with the changes. Pending suggestions are left as the patch's `custom` sets them.
 */
export function updateTicketByAi(
  ctx: RequestContext,
  ref: string,
  patch: TicketPatch,
  decision: { via: string; model: string; confidence: number | null },
  deps: Deps,
): TicketRow {
  return patchTicket(ctx, ref, patch, deps, {
    enforceRequired: false,
    actor: { type: "ai", userId: null },
    activityData: decision,
    keepSuggestions: true,
  });
}

/**
 * A change the assistant proposed and a person approved: applied exactly like their PATCH (their
 * visibility, the required-on-solve rule), its activities attributed to actor `ai` with the
 * approving user (`actor.user`) and `{ via: "assistant", action_id }` in their data.
 */
export function updateTicketByAssistant(
  ctx: RequestContext,
  ref: string,
  patch: TicketPatch,
  approval: { userId: string; actionId: string },
  deps: Deps,
): TicketRow {
  return patchTicket(ctx, ref, patch, deps, {
    enforceRequired: true,
    actor: { type: "ai", userId: approval.userId },
    activityData: { via: "assistant", action_id: approval.actionId },
  });
}

/**
 * Adds a reply or note to a ticket (the API route, inbound mail, the widget, the auto-reply). A
 * ticket merged away forwards to the ticket it was merged into.
 */
export function addMessage(
  ctx: RequestContext,
  ticketIdOrNumber: string,
  input: AddMessageInput,
  deps: Deps,
  options: { origin?: MessageOrigin } = {},
): MessageRow {
  const now = deps.clock.now().toISOString();
  return withTx(deps.db, (tx) => {
    let ticket = findVisibleTicket(tx, ctx, ticketIdOrNumber);
    for (let hops = 0; ticket.mergedIntoId && hops < 10; hops++) ticket = reloadTicket(tx, ticket.mergedIntoId);
    const written = writeMessage(tx, ctx, ticket, input, now);
    emitMessageCreated(tx, written.ticket, written.message, deps, { attachments: written.attachments }, options.origin);
    emitTicketUpdated(tx, written.ticket, written.changes, written.assigneeChanged);
    return written.message;
  });
}

/** Wakes a snoozed ticket whose time has come (the snooze job); nothing when it is not due. */
export function wakeSnoozedTicket(ticketId: string, deps: Deps): TicketRow | undefined {
  const now = deps.clock.now().toISOString();
  return withTx(deps.db, (tx) => {
    const outcome = wakeDueTicket(tx, ticketId, now);
    if (!outcome) return undefined;
    emitTicketUpdated(tx, outcome.row, outcome.changes, outcome.assigneeChanged);
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
export function bulkUpdateTickets(
  ctx: RequestContext,
  input: { ids: string[]; patch?: TicketPatch; delete?: true },
  deps: Deps,
): { updated: number; ids: string[] } {
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
  return db
    .select()
    .from(activities)
    .where(eq(activities.ticketId, ticket.id))
    .orderBy(asc(activities.createdAt), asc(activities.id))
    .all();
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
export function ticketCounts(db: Queryable, ctx: RequestContext): StatusCounts {
  const me = actorUserId(ctx) ?? "\u0000none";
  const hidden = hiddenTeamIds(db, ctx);
  const visible = hidden.length
    ? sql`AND team_id NOT IN (${sql.join(
        hidden.map((id) => sql`${id}`),
        sql`, `,
      )})`
    : sql``;
  const working = sql`spam = 0 AND snoozed = 0`;
  const active = sql`${working} AND status IN ('open', 'pending', 'on_hold')`;
  const [row] = db.all<Record<keyof StatusCounts, number | null>>(sql`SELECT
      sum(CASE WHEN ${active} AND assignee_id = '' THEN n END) AS unassigned,
      sum(CASE WHEN ${active} AND assignee_id = ${me} THEN n END) AS mine,
      sum(CASE WHEN ${working} AND status = 'open' THEN n END) AS open,
      sum(CASE WHEN ${working} AND status = 'pending' THEN n END) AS pending,
      sum(CASE WHEN ${working} AND status = 'on_hold' THEN n END) AS on_hold,
      sum(CASE WHEN spam = 0 AND status = 'solved' THEN n END) AS solved,
      sum(CASE WHEN spam = 0 AND snoozed = 1 THEN n END) AS snoozed,
      sum(CASE WHEN spam = 1 THEN n END) AS spam
    FROM ticket_counts WHERE workspace_id = ${ctx.workspaceId} ${visible}`);
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
