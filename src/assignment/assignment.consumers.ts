import type { Deps } from "../deps";
import { defineConsumer } from "../events/consumers";
import { triageSettingsOf } from "../triage/triage.public";
import { autoAssignTicket } from "./assignment.service";

type TicketData = { ticket: { id: string; assignee: unknown; spam: boolean } };

/**
 * New unassigned tickets are assigned by the workspace's rules, after the ticket's own commit; when
 * an automatic triage runs first and hands over (`assign_after_triage`), the AI assigns after it,
 * so a team the triage sets is taken into account.
 */
export const assignOnCreate = defineConsumer<Deps>({
  name: "assignment.on-ticket-created",
  types: ["ticket.created"],
  handle(_tx, event, { deps }) {
    const { ticket } = event.data as TicketData;
    if (ticket.assignee || ticket.spam) return;
    const triage = triageSettingsOf(deps.db, event.workspace_id);
    if (deps.config.ai && triage.autoTriage && triage.assignAfterTriage) return;
    autoAssignTicket(deps, event.workspace_id, ticket.id);
  },
});
