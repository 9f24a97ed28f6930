import type { Deps } from "../deps";
import { defineConsumer } from "../events/consumers";
import { autoAssignTicket } from "./assignment.service";

type TicketData = { ticket: { id: string; assignee: unknown; spam: boolean } };

/**
 * Whether an automatic triage will run on new tickets of the workspace and assign after it
 * (`assign_after_triage`): the AI feature knows, and the registry passes its answer in.
 */
export type AssignsAfterTriage = (deps: Deps, workspaceId: string) => boolean;

/**
 * New unassigned tickets are assigned by the workspace's rules, after the ticket's own commit; when
 * an automatic triage hands over, assignment waits for it, so a team the triage sets counts.
 */
export const assignOnCreate = (afterTriage: AssignsAfterTriage) =>
  defineConsumer<Deps>({
    name: "assignment.on-ticket-created",
    types: ["ticket.created"],
    handle(_tx, event, { deps }) {
      const { ticket } = event.data as TicketData;
      if (ticket.assignee || ticket.spam) return;
      if (afterTriage(deps, event.workspace_id)) return;
      autoAssignTicket(deps, event.workspace_id, ticket.id);
    },
  });
