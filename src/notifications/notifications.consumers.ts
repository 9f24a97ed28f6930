import type { Tx } from "../db/database";
import type { Deps } from "../deps";
import { type ConsumerContext, defineConsumer } from "../events/consumers";
import type { StoredEventOf } from "../events/define";
import type { StoredEvent } from "../events/envelope";
import { memberNamesOf, memberRoleOf } from "../members/members.public";
import { memberIdsOf, privateTeamOfWorkspace } from "../teams/teams.public";
import {
  activityCreated,
  firstMessageAuthorOf,
  followerIdsOf,
  messageCreated,
  ticketCreated,
  ticketOfWorkspace,
} from "../tickets/tickets.public";
import { userRef } from "../identity/identity.public";
import { mentionsOfNote } from "./notifications.mentions";
import { type NewNotification, notify } from "./notifications.service";

const EXCERPT = 200;
const excerptOf = (text: string) => {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > EXCERPT ? `${flat.slice(0, EXCERPT - 1)}…` : flat;
};

type Ticket = NonNullable<ReturnType<typeof ticketOfWorkspace>>;

/** A live ticket of the event's workspace, with the private team (if any) its events are scoped to. */
function ticketOf(
  tx: Tx,
  event: StoredEvent,
  ticketId: string,
): { ticket: Ticket; privateTeamId: string | null } | null {
  const ticket = ticketOfWorkspace(tx, event.workspace_id, ticketId);
  if (!ticket || ticket.deletedAt || ticket.mergedIntoId) return null;
  const privateTeamId = ticket.teamId ? (privateTeamOfWorkspace(tx, event.workspace_id, ticket.teamId) ?? null) : null;
  return { ticket, privateTeamId };
}

/** Whether a member may see a ticket: any member, unless it belongs to a private team (its members and admins). */
function maySee(tx: Tx, workspaceId: string, userId: string, privateTeamId: string | null): boolean {
  const role = memberRoleOf(tx, workspaceId, userId);
  if (!role) return false;
  if (!privateTeamId || role === "admin" || role === "owner") return true;
  return memberIdsOf(tx, [privateTeamId]).get(privateTeamId)?.includes(userId) ?? false;
}

function tell(
  tx: Tx,
  deps: Deps,
  event: StoredEvent,
  found: { ticket: Ticket; privateTeamId: string | null },
  userId: string,
  type: NewNotification["type"],
  data: Record<string, unknown>,
): void {
  if (!maySee(tx, event.workspace_id, userId, found.privateTeamId)) return;
  const { ticket } = found;
  notify(
    tx,
    {
      workspaceId: event.workspace_id,
      userId,
      type,
      ticket: { id: ticket.id, number: ticket.number, subject: ticket.subject },
      data,
      privateTeamId: found.privateTeamId,
    },
    deps.clock,
  );
}

/**
 * A ticket created already assigned: its creator is the author of its first message (written in
 * the same instant); the assignee is told unless they created it. Without a first message the
 * creator is unknown and nobody is told.
 */
function assignedAtCreation(tx: Tx, deps: Deps, event: StoredEventOf<typeof ticketCreated>): void {
  const { ticket } = event.data;
  if (!ticket.assignee || ticket.spam) return;
  const author = firstMessageAuthorOf(tx, event.workspace_id, ticket.id);
  if (!author || author.createdAt !== ticket.created_at || author.authorType === "contact") return;
  if (author.authorUserId === ticket.assignee.id) return;
  const found = ticketOf(tx, event, ticket.id);
  if (!found) return;
  tell(tx, deps, event, found, ticket.assignee.id, "assigned", {
    from: null,
    by: author.authorUserId,
    by_name: userRef(tx, author.authorUserId)?.name ?? author.authorType,
    via: author.authorType,
  });
}

/**
 * `assigned`: the new assignee of any assignee change someone else made (a person, an API key,
 * an automation or auto-assignment), read from the `assigned` activity, which names the actor;
 * and the assignee of a ticket someone else created already assigned.
 */
export const notifyAssigned = defineConsumer({
  name: "notifications.assigned",
  events: [activityCreated, ticketCreated],
  handle(tx, event, { deps }: ConsumerContext<Deps>) {
    if (event.type === "ticket.created") return assignedAtCreation(tx, deps, event);
    const { ticket_id, activity } = event.data;
    if (activity.type !== "assigned" || typeof activity.data.to !== "string") return;
    const to = activity.data.to;
    if (activity.actor.user?.id === to) return;
    const found = ticketOf(tx, event, ticket_id);
    if (!found || found.ticket.assigneeId !== to) return;
    tell(tx, deps, event, found, to, "assigned", {
      from: typeof activity.data.from === "string" ? activity.data.from : null,
      by: activity.actor.user?.id ?? null,
      by_name:
        activity.actor.user?.name ?? (activity.actor.type === "system" ? "auto-assignment" : activity.actor.type),
      via: activity.actor.type,
    });
  },
});

/**
 * `mentioned`: each member mentioned in a note (`<span data-mention="<user id>">@Name</span>`, the
 * markup the composer inserts, or `@Full Name` / `@email` written as plain text through the API)
 * other than its author, when they may see the ticket.
 * `customer_replied`: the assignee, when a customer's message arrives on their ticket.
 */
export const notifyOnMessage = defineConsumer({
  name: "notifications.messages",
  events: [messageCreated],
  handle(tx, event, { deps }: ConsumerContext<Deps>) {
    const { ticket_id, message } = event.data;
    if (message.kind === "note") {
      const author = message.author.user?.id ?? null;
      const mentioned = mentionsOfNote(message.body_html, message.body_text, () =>
        memberNamesOf(tx, event.workspace_id),
      ).filter((id) => id !== author);
      if (!mentioned.length) return;
      const found = ticketOf(tx, event, ticket_id);
      if (!found) return;
      for (const userId of mentioned)
        tell(tx, deps, event, found, userId, "mentioned", {
          message_id: message.id,
          by: author,
          by_name: message.author.user?.name ?? null,
          excerpt: excerptOf(message.body_text),
        });
      return;
    }
    if (message.direction !== "inbound" || message.author.type !== "contact") return;
    const found = ticketOf(tx, event, ticket_id);
    if (!found || found.ticket.spam) return;
    for (const userId of assigneeAndFollowers(tx, found.ticket))
      tell(tx, deps, event, found, userId, "customer_replied", {
        message_id: message.id,
        by_name: message.author.contact?.name || message.author.contact?.email || null,
        excerpt: excerptOf(message.body_text),
      });
  },
});

/** The assignee first, then each follower once (a follower who is also the assignee is told once). */
function assigneeAndFollowers(tx: Tx, ticket: Ticket): string[] {
  const followers = followerIdsOf(tx, [ticket.id]).get(ticket.id) ?? [];
  return [...new Set([...(ticket.assigneeId ? [ticket.assigneeId] : []), ...followers])];
}

/**
 * `sla_breached` for followers: the SLA tracker tells the assignee (or the admins) itself; each
 * follower other than the assignee learns of the same breach from its `sla_breached` activity.
 */
export const notifyFollowersOfBreach = defineConsumer({
  name: "notifications.followers-sla",
  events: [activityCreated],
  handle(tx, event, { deps }: ConsumerContext<Deps>) {
    const { ticket_id, activity } = event.data;
    if (activity.type !== "sla_breached") return;
    const found = ticketOf(tx, event, ticket_id);
    if (!found) return;
    const followers = (followerIdsOf(tx, [ticket_id]).get(ticket_id) ?? []).filter(
      (id) => id !== found.ticket.assigneeId,
    );
    const kind = activity.data.kind === "resolution" ? "resolution" : "first_response";
    const sla = found.ticket.sla;
    const due = kind === "resolution" ? (sla?.resolution_due_at ?? null) : (sla?.first_response_due_at ?? null);
    for (const userId of followers) tell(tx, deps, event, found, userId, "sla_breached", { kind, due_at: due });
  },
});
