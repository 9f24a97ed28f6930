import { and, eq, inArray } from "drizzle-orm";
import { systemContext, type VisitorContext } from "../auth/context";
import { attachmentLinks } from "../attachments/attachments.public";
import { findContact } from "../contacts/contacts.public";
import { decodeCursor, encodeCursor } from "../db/cursor";
import { transact } from "../db/tx";
import type { Deps } from "../deps";
import { invalidAt, notFound } from "../lib/errors";
import { memberIdsOfWorkspace, memberRoleOf } from "../members/members.public";
import { notify, withFollowers } from "../notifications/notifications.public";
import { handoffMailDue } from "../widget-answers/widget-answers.public";
import { quietTicketForAi } from "../ai/ai.public";
import {
  addMessage,
  chatTicketOfContact,
  chatTicketsOfContact,
  createTicketWithMessage,
  presentChatMessage,
  publicMessagesOf,
  type TicketRow,
} from "../tickets/tickets.public";
import { presentConversation, presentWidgetMessage } from "./widget.present";
import { spendVisitorAi } from "./widget.limits";
import { widgetUploads } from "./widget.table";

type MessageInput = { body: string; attachment_ids?: string[] };

/** The visitor's chat ticket, or 404 exactly as for a missing one (another visitor's, another workspace's). */
async function ownConversation(deps: Pick<Deps, "db">, visitor: VisitorContext, id: string): Promise<TicketRow> {
  const row = await chatTicketOfContact(deps.db, visitor.workspaceId, visitor.contactId, id);
  if (!row) throw notFound("Conversation");
  return row;
}

/** Only the visitor's own unattached uploads may go with their message (422 at the id otherwise). */
async function assertOwnUploads(deps: Pick<Deps, "db">, visitor: VisitorContext, ids: string[]): Promise<void> {
  if (ids.length === 0) return;
  const own = new Set(
    (
      await deps.db
        .select({ id: widgetUploads.attachmentId })
        .from(widgetUploads)
        .where(
          and(
            eq(widgetUploads.workspaceId, visitor.workspaceId),
            eq(widgetUploads.contactId, visitor.contactId),
            inArray(widgetUploads.attachmentId, ids),
          ),
        )
    ).map((r) => r.id),
  );
  const bad = ids.findIndex((id) => !own.has(id));
  if (bad >= 0) throw invalidAt(`body.attachment_ids.${bad}`, "Not a file you uploaded.");
}

function assertContent(input: MessageInput): void {
  if (input.body === "" && !input.attachment_ids?.length)
    throw invalidAt("body.body", "Write a message or attach a file.");
}

/** The first line of the first message, as agents see the chat in their inbox. */
function subjectOf(body: string, fileCount: number): string {
  const line =
    body
      .split("\n")
      .find((l) => l.trim() !== "")
      ?.trim() ?? "";
  if (line === "") return fileCount > 0 ? "Chat: file shared" : "Chat";
  return line.length > 80 ? `${line.slice(0, 79)}…` : line;
}

export async function listConversations(
  deps: Deps,
  visitor: VisitorContext,
  query: { limit: number; cursor?: string },
) {
  const after = decodeCursor(query.cursor, 2);
  if (query.cursor !== undefined && !after) throw invalidAt("query.cursor", "Not a cursor of this list.");
  const rows = await chatTicketsOfContact(
    deps.db,
    visitor.workspaceId,
    visitor.contactId,
    query.limit + 1,
    after ? { lastMessageAt: String(after[0]), id: String(after[1]) } : null,
  );
  const more = rows.length > query.limit;
  const kept = more ? rows.slice(0, query.limit) : rows;
  const last = kept.at(-1);
  return {
    data: kept.map(presentConversation),
    next_cursor: more && last ? encodeCursor([last.lastMessageAt, last.id]) : null,
  };
}

/** A new chat ticket with the visitor's first message (ticket.created and a public message.created). */
export async function startConversation(deps: Deps, visitor: VisitorContext, input: MessageInput) {
  assertContent(input);
  const ids = input.attachment_ids ?? [];
  await assertOwnUploads(deps, visitor, ids);
  const contact = await findContact(deps.db, visitor.workspaceId, visitor.contactId);
  if (!contact) throw notFound("Contact");
  const created = await createTicketWithMessage(
    systemContext(visitor.workspaceId, visitor.requestId),
    {
      subject: subjectOf(input.body, ids.length),
      channel: "chat",
      contact_id: contact.id,
      body_text: input.body,
      attachment_ids: ids,
      direction: "inbound",
      author: { type: "contact", contactId: contact.id },
      email: { from_email: contact.email ?? "", from_name: contact.name },
    },
    deps,
  );
  await leaveToPeopleWhenSpent(deps, visitor, created.ticket.id);
  const links = attachmentLinks(deps);
  return {
    conversation: presentConversation(created.ticket),
    message: presentWidgetMessage(await presentChatMessage(deps.db, created.message!, links)),
  };
}

export async function conversationMessages(deps: Deps, visitor: VisitorContext, id: string) {
  const ticket = await ownConversation(deps, visitor, id);
  return (await publicMessagesOf(deps.db, ticket.id, attachmentLinks(deps))).map(presentWidgetMessage);
}

/** The visitor's reply: reopens a solved chat like any customer reply (tickets' own rule). */
export async function sendMessage(deps: Deps, visitor: VisitorContext, id: string, input: MessageInput) {
  assertContent(input);
  const ticket = await ownConversation(deps, visitor, id);
  const ids = input.attachment_ids ?? [];
  await assertOwnUploads(deps, visitor, ids);
  const row = await addMessage(
    systemContext(visitor.workspaceId, visitor.requestId),
    ticket.id,
    {
      kind: "reply",
      direction: "inbound",
      body_text: input.body,
      attachment_ids: ids,
      author: { type: "contact", contactId: visitor.contactId },
    },
    deps,
  );
  await leaveToPeopleWhenSpent(deps, visitor, ticket.id);
  return presentWidgetMessage(await presentChatMessage(deps.db, row, attachmentLinks(deps)));
}

/**
 * Past the visitor's (or their address's) hourly AI allowance the conversation is left to people:
 * marked in the same turn as the message, so no AI answer, triage or AI condition starts on it.
 */
async function leaveToPeopleWhenSpent(deps: Deps, visitor: VisitorContext, ticketId: string): Promise<void> {
  if (await spendVisitorAi(deps, visitor)) return;
  await transact(
    deps.db,
    async (tx) => await quietTicketForAi(tx, visitor.workspaceId, ticketId, "visitor_ai_allowance", deps.clock.now()),
  );
}

/**
 * The visitor asks for a person: the assignee is told (`ai_handoff`), or every owner and admin when
 * nobody is assigned, and the ticket's followers. Nothing about the ticket changes.
 */
export async function requestHandoff(deps: Deps, visitor: VisitorContext, id: string) {
  const ticket = await ownConversation(deps, visitor, id);
  return await transact(deps.db, async (tx) => {
    const told: string[] = [];
    if (ticket.assigneeId) told.push(ticket.assigneeId);
    else
      for (const userId of await memberIdsOfWorkspace(tx, visitor.workspaceId)) {
        const role = await memberRoleOf(tx, visitor.workspaceId, userId);
        if (role === "owner" || role === "admin") told.push(userId);
      }
    const people = await withFollowers(tx, visitor.workspaceId, ticket.id, told);
    for (const userId of people)
      await notify(
        tx,
        {
          workspaceId: visitor.workspaceId,
          userId,
          type: "ai_handoff",
          ticket: { id: ticket.id, number: ticket.number, subject: ticket.subject },
          data: { contact_id: visitor.contactId, via: "widget" },
          email: await handoffMailDue(tx, visitor.workspaceId, userId, deps.clock.now()),
        },
        deps.clock,
      );
    return { requested: true as const, notified: people.length };
  });
}
