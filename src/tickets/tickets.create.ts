import { one } from "../db/store";
import { eq } from "drizzle-orm";
import type { RequestContext } from "../auth/context";
import type { AttachmentRow } from "../attachments/attachments.public";
import { presentContactRef } from "../contacts/contacts.public";
import { findOrCreateContactByEmail, liveContactRef as liveContactRefRow } from "../contacts/contacts.public";
import { applyFieldWriteWithValues } from "../custom-fields/fields.public";
import type { Queryable, Tx } from "../db/database";
import { transact } from "../db/tx";
import type { Deps } from "../deps";
import { applyLabelWrite } from "../labels/labels.public";
import { invalidAt, notFound } from "../lib/errors";
import { newId } from "../lib/ids";
import type { Ports } from "../lib/ports";
import { findMailbox, firstMailboxOf } from "../mailboxes/mailboxes.public";
import { composeMessage, emitMessageCreated, insertComposedMessage, type AddMessageInput } from "./messages.service";
import type { MessageRow } from "./messages.table";
import type { ContactRefJson, KnownTicketParts } from "./tickets.present";
import { ticketNumberCounter, type TakeTicketNumber } from "./tickets.ports";
import { derivedTicketColumns, insertTicketRow } from "./tickets.statements";
import {
  tickets,
  type Channel,
  type Priority,
  type Severity,
  type TicketRow,
  type TicketStatus,
} from "./tickets.table";
import { emitTicketCreated } from "./tickets.timeline";
import {
  assertAssignable,
  assertMailbox,
  assertSolvable,
  assertTeam,
  messageCounters,
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

async function nextTicketNumber(tx: Tx, workspaceId: string, takeNumber: TakeTicketNumber): Promise<number> {
  const number = await takeNumber(tx, workspaceId);
  if (number === undefined) throw notFound("Workspace");
  return number;
}

async function liveContactRef(db: Queryable, workspaceId: string, contactId: string): Promise<ContactRefJson> {
  const row = await liveContactRefRow(db, workspaceId, contactId);
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
export async function withSendingMailbox(
  db: Queryable,
  ctx: RequestContext,
  input: CreateTicketInput,
): Promise<CreateTicketInput> {
  if (input.channel !== "email") return input;
  const mailbox = input.mailbox_id
    ? await findMailbox(db, ctx.workspaceId, input.mailbox_id)
    : await firstMailboxOf(db, ctx.workspaceId);
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
export async function createTicket(ctx: RequestContext, input: CreateTicketInput, deps: Deps): Promise<TicketRow> {
  return (await createTicketWithMessage(ctx, input, deps)).ticket;
}

/** What a new ticket will be, decided before anything is written. */
type NewTicketPlan = {
  row: TicketRow;
  contact: ContactRefJson | null;
  status: TicketStatus;
  message: AddMessageInput | null;
  /** The first message built in hand when it folds into the ticket's own insert. */
  composed: MessageRow | null;
};

/** The ticket's contact: the one named (404-like 422 when gone), found or created by email, or none. */
async function contactOfNewTicket(
  tx: Tx,
  ctx: RequestContext,
  input: CreateTicketInput,
  given: { contact?: ContactRefJson },
  ports: Ports,
): Promise<ContactRefJson | null> {
  if (input.contact_id !== undefined && input.contact !== undefined)
    throw invalidAt("body.contact", "Send contact_id or contact, not both.");
  return input.contact_id !== undefined
    ? given.contact?.id === input.contact_id
      ? given.contact
      : await liveContactRef(tx, ctx.workspaceId, input.contact_id)
    : input.contact
      ? presentContactRef(
          await findOrCreateContactByEmail(
            tx,
            ctx,
            { email: input.contact.email, name: input.contact.name ?? null },
            ports,
          ),
        )
      : null;
}

function newTicketRow(
  number: number,
  ctx: RequestContext,
  input: CreateTicketInput,
  contact: ContactRefJson | null,
  status: TicketStatus,
  now: string,
): TicketRow {
  const base = {
    id: newId(),
    workspaceId: ctx.workspaceId,
    number,
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
  return { ...base, ...derivedTicketColumns(base) };
}

const firstMessageInput = (input: CreateTicketInput): AddMessageInput | null =>
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

/** Validates the references and builds the ticket's row (and its first message, when it folds in). */
async function decideNewTicket(
  tx: Tx,
  ctx: RequestContext,
  input: CreateTicketInput,
  now: string,
  given: { contact?: ContactRefJson },
  ports: Ports,
): Promise<NewTicketPlan> {
  const contact = await contactOfNewTicket(tx, ctx, input, given, ports);
  if (input.assignee_id) await assertAssignable(tx, ctx.workspaceId, input.assignee_id, "body.assignee_id");
  if (input.team_id) await assertTeam(tx, ctx, input.team_id, "body.team_id");
  if (input.mailbox_id) await assertMailbox(tx, ctx.workspaceId, input.mailbox_id, "body.mailbox_id");
  const status = input.status ?? "open";
  const number = await nextTicketNumber(tx, ctx.workspaceId, ports.get(ticketNumberCounter));
  let row = newTicketRow(number, ctx, input, contact, status, now);
  const message = firstMessageInput(input);
  // The message row is built first so the ticket's insert carries the counters it moves.
  const composed =
    message && firstMessageFoldsIn(input, status)
      ? composeMessage(ctx, row, message, now, contact?.email ?? null)
      : null;
  if (composed) row = { ...row, ...messageCounters(row, composed, now, true).counters };
  return { row, contact, status, message, composed };
}

/** Inserts the ticket with the labels and values given at creation (part of it: no activities of their own). */
async function writeNewTicket(
  tx: Tx,
  ctx: RequestContext,
  input: CreateTicketInput,
  plan: NewTicketPlan,
  ports: Ports,
): Promise<KnownTicketParts> {
  const { row, status } = plan;
  await insertTicketRow(tx, row);
  const known: KnownTicketParts = { contact: plan.contact, tags: [], fields: {} };
  if (input.tags?.length)
    known.tags = (await applyLabelWrite(tx, ctx, "tickets", row.id, { tags: input.tags }, ports)).tags ?? undefined;
  if (input.fields && Object.keys(input.fields).length)
    known.fields = (await applyFieldWriteWithValues(tx, ctx, "ticket", row.id, input.fields)).values ?? undefined;
  if ((status === "solved" || status === "closed") && !input.author) await assertSolvable(tx, ctx.workspaceId, row.id);
  return known;
}

/** Stores the first message: folded in (counters already on the row) or through writeMessage's status rules. */
async function writeFirstMessage(
  tx: Tx,
  ctx: RequestContext,
  input: CreateTicketInput,
  plan: NewTicketPlan,
  now: string,
  ports: Ports,
): Promise<{ ticket: TicketRow; message: MessageRow | null; attachments: AttachmentRow[] }> {
  if (plan.composed)
    return {
      ticket: plan.row,
      message: plan.composed,
      attachments: await insertComposedMessage(tx, plan.composed, input.attachment_ids),
    };
  if (!plan.message) return { ticket: plan.row, message: null, attachments: [] };
  const written = await writeMessage(tx, ctx, plan.row, plan.message, now, ports, {
    opensTicket: true,
    contactEmail: plan.contact?.email ?? null,
  });
  let ticket = written.ticket;
  if (input.direction === "inbound" && ticket.status !== plan.status) {
    // The first customer message must not reopen a ticket created solved on purpose.
    ticket = one(await tx.update(tickets).set({ status: plan.status }).where(eq(tickets.id, ticket.id)).returning())!;
  }
  return { ticket, message: written.message, attachments: written.attachments };
}

/**
 * createTicket answering the first message too (inbound mail records its id). One pass: decide the
 * ticket (contact, references, row, first message), write the ticket, write its first message,
 * then the events. The rows are built in JS and written with prepared statements; the events are
 * presented from what is in hand.
 */
export async function createTicketWithMessage(
  ctx: RequestContext,
  input: CreateTicketInput,
  deps: Deps,
  /** The contact of `contact_id` when the caller found it in this same transaction (skips the look-up). */
  given: { contact?: ContactRefJson } = {},
): Promise<CreatedTicket> {
  const now = deps.clock.now().toISOString();
  return await transact(deps.db, async (tx) => {
    const plan = await decideNewTicket(tx, ctx, input, now, given, deps.ports);
    const known = await writeNewTicket(tx, ctx, input, plan, deps.ports);
    const { ticket, message, attachments } = await writeFirstMessage(tx, ctx, input, plan, now, deps.ports);
    await emitTicketCreated(tx, ticket, known);
    if (message) {
      const author = message.authorContactId && message.authorContactId === plan.contact?.id ? plan.contact : undefined;
      await emitMessageCreated(tx, ticket, message, deps, { attachments, contact: author });
    }
    return { ticket, message };
  });
}
