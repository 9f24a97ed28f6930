import type { Deps } from "../deps";
import { type ConsumerContext, defineConsumer } from "../events/consumers";
import { firstMessageOf, liveSlaTicket, messageCreated, ticketCreated } from "../tickets/tickets.public";
import { workspaceUpdated } from "../workspaces/workspaces.public";
import { assignOnReplyOf, autoAssignTicket, autoAssignsIn, takeTicketOnReply } from "./assignment.service";

/**
 * Whether an automatic triage will run on new tickets of the workspace and assign after it
 * (`assign_after_triage`): the AI feature knows, from the triage settings.
 */
export type AssignsAfterTriage = (deps: Deps, workspaceId: string) => boolean | Promise<boolean>;

/**
 * New unassigned tickets are assigned by the workspace's rules, after the ticket's own commit; when
 * an automatic triage hands over, assignment waits for it, so a team the triage sets counts.
 */
export const assignOnCreate = (afterTriage: AssignsAfterTriage) =>
  defineConsumer({
    name: "assignment.on-ticket-created",
    events: [ticketCreated],
    // Most workspaces never turn auto-assignment on: their new tickets cost no read at all. The
    // mode lives in the workspace's settings (workspace.updated); rule changes call reactionStateChanged.
    quiet: {
      when: async (deps: Deps, workspaceId) => !(await autoAssignsIn(deps.db, workspaceId)),
      changedBy: [workspaceUpdated],
    },
    async handle(_tx, event, { deps }: ConsumerContext<Deps>) {
      const { ticket } = event.data;
      if (ticket.assignee || ticket.spam) return;
      if (await afterTriage(deps, event.workspace_id)) return;
      await autoAssignTicket(deps, event.workspace_id, ticket.id);
    },
  });

/**
 * An agent's reply (not a note) on an unassigned ticket assigns it to them, so a second agent sees
 * it taken (`settings.assign_on_reply`, default on). Replies by API keys, automations, the system
 * and customers never take a ticket, nor does the first message of a ticket someone creates (they chose
 * its assignee then); the ticket is read as it is now, so whoever replied first keeps it.
 */
export const assignOnReply = defineConsumer({
  name: "assignment.on-agent-reply",
  events: [messageCreated],
  // Off for the workspace (`assign_on_reply: false`, in its settings): no reply is read at all.
  quiet: {
    when: async (deps: Deps, workspaceId) => !(await assignOnReplyOf(deps.db, workspaceId)),
    changedBy: [workspaceUpdated],
  },
  async handle(tx, event, { deps }: ConsumerContext<Deps>) {
    const { ticket_id, message } = event.data;
    if (message.kind !== "reply" || message.direction !== "outbound") return;
    if (message.author.type !== "user" || !message.author.user) return;
    // Most agent replies through the API open their ticket: two prepared reads tell, before the
    // settings and the ticket are read in full (takeTicketOnReply checks it again).
    const ticket = await liveSlaTicket(tx, event.workspace_id, ticket_id);
    if (!ticket) return;
    if (ticket.createdAt === message.created_at && (await firstMessageOf(tx, ticket_id))?.id === message.id) return;
    await takeTicketOnReply(deps, event.workspace_id, ticket_id, message.author.user.id, {
      id: message.id,
      createdAt: message.created_at,
    });
  },
});
