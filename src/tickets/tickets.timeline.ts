import type { RequestContext } from "../auth/context";
import { actorUserId } from "../auth/context";
import type { Tx } from "../db/database";
import { userTopic } from "../events/envelope";
import { activityCreated, ticketCreated, ticketDeleted, ticketUpdated } from "./tickets.events";
import { appendEvent } from "../events/append";
import { newId } from "../lib/ids";
import { presentActivities, presentTicket, type KnownTicketParts } from "./tickets.present";
import { privateTeamOf } from "./tickets.repo";
import { insertActivityRow } from "./tickets.statements";
import type { ActivityRow, TicketRow } from "./tickets.table";

export type ActorType = ActivityRow["actorType"];
type ActivityActor = { type: ActorType; userId: string | null; automation?: { id: string; name: string } };

/** Who an activity is attributed to, from the request context. */
export function actorOf(ctx: RequestContext): ActivityActor {
  if (ctx.automation) return { type: "automation", userId: null, automation: ctx.automation };
  if (ctx.actor.type === "user") return { type: "user", userId: ctx.actor.userId };
  if (ctx.actor.apiKeyId === "system") return { type: "system", userId: null };
  return { type: "api", userId: actorUserId(ctx) };
}

/** Stores one timeline entry and its `activity.created` event in the caller's transaction. */
export async function recordActivity(
  tx: Tx,
  ctx: RequestContext,
  ticket: Pick<TicketRow, "id" | "workspaceId" | "teamId">,
  type: string,
  data: Record<string, unknown>,
  at: string,
  actor: ActivityActor = actorOf(ctx),
): Promise<ActivityRow> {
  const row: ActivityRow = {
    id: newId(),
    workspaceId: ticket.workspaceId,
    ticketId: ticket.id,
    type,
    data,
    actorType: actor.type,
    actorUserId: actor.userId,
    actorAutomation: actor.automation ?? null,
    createdAt: at,
  };
  await insertActivityRow(tx, row);
  await appendEvent(tx, activityCreated, {
    workspaceId: ticket.workspaceId,
    data: { ticket_id: ticket.id, activity: (await presentActivities(tx, [row]))[0]! },
    privateTeamId: await privateTeamOf(tx, ticket.workspaceId, ticket.teamId),
  });
  return row;
}

/** `ticket.updated { ticket, changes }`; the new assignee's user topic is told when the assignee changes. */
export async function emitTicketUpdated(
  tx: Tx,
  ticket: TicketRow,
  changes: string[],
  assigneeChanged = false,
): Promise<void> {
  await appendEvent(tx, ticketUpdated, {
    workspaceId: ticket.workspaceId,
    data: { ticket: await presentTicket(tx, ticket), changes },
    privateTeamId: await privateTeamOf(tx, ticket.workspaceId, ticket.teamId),
    extraTopics: assigneeChanged && ticket.assigneeId ? [userTopic(ticket.assigneeId)] : [],
  });
}

export async function emitTicketCreated(tx: Tx, ticket: TicketRow, known: KnownTicketParts = {}): Promise<void> {
  await appendEvent(tx, ticketCreated, {
    workspaceId: ticket.workspaceId,
    data: { ticket: await presentTicket(tx, ticket, known) },
    privateTeamId: await privateTeamOf(tx, ticket.workspaceId, ticket.teamId),
  });
}

export async function emitTicketDeleted(tx: Tx, ticket: TicketRow): Promise<void> {
  await appendEvent(tx, ticketDeleted, {
    workspaceId: ticket.workspaceId,
    data: { ticket_id: ticket.id },
    privateTeamId: await privateTeamOf(tx, ticket.workspaceId, ticket.teamId),
  });
}
