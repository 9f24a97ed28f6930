import type { Tx } from "../db/database";
import type { Deps } from "../deps";
import { type ConsumerContext, defineConsumer } from "../events/consumers";
import type { StoredEventOf } from "../events/define";
import type { StoredEvent } from "../events/envelope";
import { memberNamesOf, memberRoleOf } from "../members/members.public";
import { privateTeamOfWorkspace } from "../teams/teams.public";
import {
  activityCreated,
  firstMessageAuthorOf,
  followerIdsOf,
  messageCreated,
  ticketCreated,
  ticketOfWorkspace,
} from "../tickets/tickets.public";
import { userRef } from "../identity/identity.public";
import { MAX_RECIPIENTS, maySee } from "./notifications.audience";
import { mentionsOfNote } from "./notifications.mentions";
import { type NewNotification, notify } from "./notifications.service";

const EXCERPT = 200;
const excerptOf = (text: string) => {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > EXCERPT ? `${flat.slice(0, EXCERPT - 1)}…` : flat;
};

type Ticket = NonNullable<Awaited<ReturnType<typeof ticketOfWorkspace>>>;

/** A live ticket of the event's workspace, with the private team (if any) its events are scoped to. */
async function ticketOf(
  tx: Tx,
  event: StoredEvent,
  ticketId: string,
): Promise<{ ticket: Ticket; privateTeamId: string | null } | null> {
  const ticket = await ticketOfWorkspace(tx, event.workspace_id, ticketId);
  if (!ticket || ticket.deletedAt || ticket.mergedIntoId) return null;
  const privateTeamId = ticket.teamId
    ? ((await privateTeamOfWorkspace(tx, event.workspace_id, ticket.teamId)) ?? null)
    : null;
  return { ticket, privateTeamId };
}

async function tell(
  tx: Tx,
  deps: Deps,
  event: StoredEvent,
  found: { ticket: Ticket; privateTeamId: string | null },
  userId: string,
  type: NewNotification["type"],
  data: Record<string, unknown>,
): Promise<void> {
  if (!(await maySee(tx, event.workspace_id, userId, found.privateTeamId))) return;
  const { ticket } = found;
  await notify(
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
async function assignedAtCreation(tx: Tx, deps: Deps, event: StoredEventOf<typeof ticketCreated>): Promise<void> {
  const { ticket } = event.data;
  if (!ticket.assignee || ticket.spam) return;
  const author = await firstMessageAuthorOf(tx, event.workspace_id, ticket.id);
  if (!author || author.createdAt !== ticket.created_at || author.authorType === "contact") return;
  if (author.authorUserId === ticket.assignee.id) return;
  const found = await ticketOf(tx, event, ticket.id);
  if (!found) return;
  await tell(tx, deps, event, found, ticket.assignee.id, "assigned", {
    from: null,
    by: author.authorUserId,
    by_name: (await userRef(tx, author.authorUserId))?.name ?? author.authorType,
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
  async handle(tx, event, { deps }: ConsumerContext<Deps>) {
    if (event.type === "ticket.created") return await assignedAtCreation(tx, deps, event);
    const { ticket_id, activity } = event.data;
    if (activity.type !== "assigned" || typeof activity.data.to !== "string") return;
    const to = activity.data.to;
    if (activity.actor.user?.id === to) return;
    const found = await ticketOf(tx, event, ticket_id);
    if (!found || found.ticket.assigneeId !== to) return;
    await tell(tx, deps, event, found, to, "assigned", {
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
 * other than its author, when they may see the ticket; `note_added`: the note's assignee and
 * followers it did not mention, its author aside.
 * `customer_replied`: the assignee and the followers, when a customer's message arrives on their ticket.
 */
export const notifyOnMessage = defineConsumer({
  name: "notifications.messages",
  events: [messageCreated],
  async handle(tx, event, { deps }: ConsumerContext<Deps>) {
    const { ticket_id, message } = event.data;
    if (message.kind === "note") return await noteTold(tx, deps, event);
    if (message.direction !== "inbound" || message.author.type !== "contact") return;
    const found = await ticketOf(tx, event, ticket_id);
    if (!found || found.ticket.spam) return;
    for (const userId of await assigneeAndFollowers(tx, found.ticket))
      await tell(tx, deps, event, found, userId, "customer_replied", {
        message_id: message.id,
        by_name: message.author.contact?.name || message.author.contact?.email || null,
        excerpt: excerptOf(message.body_text),
      });
  },
});

/**
 * The assignee first, then each follower once (a follower who is also the assignee is told once),
 * at most MAX_RECIPIENTS: each is a row, an event and perhaps a mail job in this transaction.
 */
async function assigneeAndFollowers(tx: Tx, ticket: Ticket): Promise<string[]> {
  const followers = (await followerIdsOf(tx, [ticket.id])).get(ticket.id) ?? [];
  return [...new Set([...(ticket.assigneeId ? [ticket.assigneeId] : []), ...followers])].slice(0, MAX_RECIPIENTS);
}

/**
 * A note: `mentioned` to each member it mentions, then `note_added` to the assignee and the
 * followers it did not mention; never to its author (a note is news to the others only), nor for
 * the note a ticket was opened with.
 */
async function noteTold(tx: Tx, deps: Deps, event: StoredEventOf<typeof messageCreated>): Promise<void> {
  const { ticket_id, message } = event.data;
  const author = message.author.user?.id ?? null;
  const mentioned = (
    await mentionsOfNote(message.body_html, message.body_text, async () => await memberNamesOf(tx, event.workspace_id))
  ).filter((id) => id !== author);
  const found = await ticketOf(tx, event, ticket_id);
  if (!found) return;
  const data = {
    message_id: message.id,
    by: author,
    by_name: message.author.user?.name ?? null,
    excerpt: excerptOf(message.body_text),
  };
  for (const userId of mentioned) await tell(tx, deps, event, found, userId, "mentioned", data);
  // A ticket opened with a note: its assignee hears `assigned` (which names the creator), not twice.
  if (message.created_at === found.ticket.createdAt) return;
  const skip = new Set([...mentioned, ...(author ? [author] : [])]);
  for (const userId of await assigneeAndFollowers(tx, found.ticket))
    if (!skip.has(userId)) await tell(tx, deps, event, found, userId, "note_added", data);
}

/**
 * `sla_breached` for followers: the SLA tracker tells the assignee (or the owners and admins of an
 * unassigned ticket) itself; each other follower learns of the same breach from its activity.
 */
export const notifyFollowersOfBreach = defineConsumer({
  name: "notifications.followers-sla",
  events: [activityCreated],
  async handle(tx, event, { deps }: ConsumerContext<Deps>) {
    const { ticket_id, activity } = event.data;
    if (activity.type !== "sla_breached") return;
    const found = await ticketOf(tx, event, ticket_id);
    if (!found) return;
    // The tracker told the assignee, or every owner and admin of an unassigned ticket: not twice.
    const toldByTracker = async (id: string) =>
      found.ticket.assigneeId
        ? id === found.ticket.assigneeId
        : ["owner", "admin"].includes((await memberRoleOf(tx, event.workspace_id, id)) ?? "");
    const followers: string[] = [];
    for (const id of await assigneeAndFollowers(tx, found.ticket)) if (!(await toldByTracker(id))) followers.push(id);
    const kind = activity.data.kind === "resolution" ? "resolution" : "first_response";
    const sla = found.ticket.sla;
    const due = kind === "resolution" ? (sla?.resolution_due_at ?? null) : (sla?.first_response_due_at ?? null);
    for (const userId of followers) await tell(tx, deps, event, found, userId, "sla_breached", { kind, due_at: due });
  },
});
