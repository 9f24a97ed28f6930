import { one } from "../db/store";
import { eq } from "drizzle-orm";
import type { RequestContext } from "../auth/context";
import { firstMailboxOf } from "../mailboxes/mailboxes.public";
import { contactRefsOf } from "../contacts/contacts.public";
import { applyLabelWrite } from "../labels/labels.public";
import type { Tx } from "../db/database";
import type { Deps } from "../deps";
import { notFound } from "../lib/errors";
import { newId } from "../lib/ids";
import { composeMessage, emitMessageCreated, insertComposedMessage } from "./messages.service";
import type { MessageRow } from "./messages.table";
import { derivedTicketColumns, insertTicketRow, liveTicketRow, updateTicketCounters } from "./tickets.statements";
import { ticketNumberCounter } from "./tickets.ports";
import { tickets, type Priority, type TicketRow, type TicketStatus } from "./tickets.table";
import { emitTicketCreated, emitTicketUpdated } from "./tickets.timeline";
import { messageCounters } from "./tickets.write";

/**
 * Writes for records brought from another help desk (src/imports). They keep the source's times
 * (created, solved, each message's), write no activities (the history is the source's), store
 * messages as already delivered (`delivery_status: none`, so the outbox sends nothing) and pass
 * `origin: "import"` on their events. Reactions (automations, CSAT, notifications, SLA,
 * assignment) are kept off by the caller, which runs them under `withoutReactions`.
 */

export type ImportedTicketInput = {
  subject: string;
  status: TicketStatus;
  priority: Priority;
  contactId: string | null;
  assigneeId: string | null;
  tags: string[];
  createdAt: string;
  updatedAt: string;
  solvedAt: string | null;
};

export type ImportedMessageInput = {
  kind: "reply" | "note";
  direction: "inbound" | "outbound";
  author: { type: "user" | "contact" | "system"; userId?: string | null; contactId?: string | null };
  fromName: string;
  fromEmail: string;
  /** Untrusted HTML from the source: sanitized like any message's. */
  bodyHtml: string;
  createdAt: string;
  attachmentIds: string[];
};

const solvedAtOf = (input: ImportedTicketInput): string | null =>
  input.status === "solved" || input.status === "closed" ? (input.solvedAt ?? input.updatedAt) : null;

/** Creates an imported ticket without messages (importMessage adds them); emits ticket.created. */
export async function importTicket(
  ctx: RequestContext,
  input: ImportedTicketInput,
  deps: Pick<Deps, "ports">,
  tx: Tx,
): Promise<TicketRow> {
  const number = await deps.ports.get(ticketNumberCounter)(tx, ctx.workspaceId);
  if (number === undefined) throw notFound("Workspace");
  // Replies to a ticket that came by mail go out from the workspace's mailbox, as any email ticket's.
  const mailbox = await firstMailboxOf(tx, ctx.workspaceId);
  const base = {
    id: newId(),
    workspaceId: ctx.workspaceId,
    number,
    subject: input.subject,
    status: input.status,
    priority: input.priority,
    severity: null,
    channel: mailbox ? ("email" as const) : ("api" as const),
    mailboxId: mailbox?.id ?? null,
    contactId: input.contactId,
    assigneeId: input.assigneeId,
    teamId: null,
    spam: false,
    snoozedUntil: null,
    solvedAt: solvedAtOf(input),
    firstRespondedAt: null,
    lastMessageAt: input.createdAt,
    lastCustomerMessageAt: null,
    lastMessagePreview: "",
    messageCount: 0,
    csat: null,
    custom: {},
    sla: null,
    mergedIntoId: null,
    deletedAt: null,
    createdAt: input.createdAt,
    updatedAt: input.updatedAt,
  } satisfies Omit<TicketRow, "priorityRank" | "severityRank" | "dueAt">;
  const row: TicketRow = { ...base, ...derivedTicketColumns(base) };
  await insertTicketRow(tx, row);
  const tags = input.tags.length
    ? ((await applyLabelWrite(tx, ctx, "tickets", row.id, { tags: input.tags }, deps.ports)).tags ?? [])
    : [];
  await emitTicketCreated(tx, row, { tags });
  return row;
}

/**
 * Brings an imported ticket up to the source's state (subject, status, priority, assignee, tags,
 * solved time); answers null when the ticket was deleted or merged in Desk since (left alone).
 */
export async function updateImportedTicket(
  ctx: RequestContext,
  ticketId: string,
  input: ImportedTicketInput,
  deps: Pick<Deps, "ports">,
  tx: Tx,
): Promise<TicketRow | null> {
  const current = await liveTicketRow(tx, ctx.workspaceId, ticketId);
  if (!current) return null;
  const set: Partial<typeof tickets.$inferInsert> = {};
  const changes: string[] = [];
  if (current.subject !== input.subject) {
    set.subject = input.subject;
    changes.push("subject");
  }
  if (current.status !== input.status) {
    set.status = input.status;
    changes.push("status");
  }
  if (current.priority !== input.priority) {
    set.priority = input.priority;
    changes.push("priority");
  }
  const assigneeChanged = current.assigneeId !== input.assigneeId;
  if (assigneeChanged) {
    set.assigneeId = input.assigneeId;
    changes.push("assignee");
  }
  const solvedAt = solvedAtOf(input);
  if (current.solvedAt !== solvedAt) set.solvedAt = solvedAt;
  const labels = await applyLabelWrite(tx, ctx, "tickets", ticketId, { tags: input.tags }, deps.ports);
  if (labels.added.length + labels.removed.length > 0) changes.push("tags");
  if (changes.length === 0 && set.solvedAt === undefined) return current;
  // ISO strings of one format: the later one sorts last.
  set.updatedAt = [input.updatedAt, current.updatedAt].sort()[1];
  const row = one(await tx.update(tickets).set(set).where(eq(tickets.id, ticketId)).returning())!;
  if (changes.length) await emitTicketUpdated(tx, row, changes, assigneeChanged && row.assigneeId !== null);
  return row;
}

/**
 * Adds one imported message at its original time. The ticket's counters move only when the
 * message is newer than what the ticket shows (messages may come in any order on a re-run).
 */
export async function importMessage(
  ctx: RequestContext,
  ticketId: string,
  input: ImportedMessageInput,
  deps: Pick<Deps, "config" | "clock">,
  tx: Tx,
): Promise<MessageRow | null> {
  const ticket = await liveTicketRow(tx, ctx.workspaceId, ticketId);
  if (!ticket) return null;
  const contactEmail = ticket.contactId
    ? ((await contactRefsOf(tx, [ticket.contactId])).get(ticket.contactId)?.email ?? null)
    : null;
  const composed = composeMessage(
    ctx,
    ticket,
    {
      kind: input.kind,
      direction: input.direction,
      body_html: input.bodyHtml,
      author: input.author,
      email: { from_name: input.fromName, from_email: input.fromEmail },
    },
    input.createdAt,
    contactEmail,
  );
  // Sent long ago by the other desk: the outbox must never send it again.
  const message: MessageRow = { ...composed, deliveryStatus: "none" };
  const attachments = await insertComposedMessage(tx, message, input.attachmentIds);
  const first = ticket.messageCount === 0;
  const { counters } = messageCounters(ticket, message, input.createdAt, first);
  const newer = input.createdAt >= ticket.lastMessageAt || first;
  const next: TicketRow = {
    ...ticket,
    messageCount: ticket.messageCount + 1,
    ...(newer
      ? {
          lastMessageAt: counters.lastMessageAt ?? ticket.lastMessageAt,
          lastMessagePreview: counters.lastMessagePreview ?? ticket.lastMessagePreview,
          lastCustomerMessageAt: counters.lastCustomerMessageAt ?? ticket.lastCustomerMessageAt,
        }
      : {}),
    firstRespondedAt:
      ticket.firstRespondedAt ??
      (!first && message.kind === "reply" && message.direction === "outbound" ? input.createdAt : null),
    updatedAt: ticket.updatedAt,
  };
  await updateTicketCounters(tx, next);
  await emitMessageCreated(tx, next, message, deps, { attachments }, "import");
  return message;
}
