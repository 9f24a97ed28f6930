import { systemContext, type RequestContext } from "../auth/context";
import { checkFieldValue, fieldDefinitions } from "../custom-fields/custom-fields.public";
import type { Tx } from "../db/database";
import type { Deps } from "../deps";
import { DeskError } from "../lib/errors";
import { memberRoleOf } from "../members/members.public";
import { teamOfWorkspace } from "../teams/teams.public";
import { addMessage, updateTicket, type TicketStatus } from "../tickets/tickets.public";
import type { AiTriage } from "./automations.ai";
import { typedFieldValue } from "./automations.fields";
import { aiRepliesToCustomer } from "./automations.rules";
import type { AutomationAction, AutomationCondition } from "./automations.schemas";
import type { AutomationRunNote } from "./automations.table";

type TicketPatch = Parameters<typeof updateTicket>[2];
type Severity = NonNullable<TicketPatch["severity"]>;
type Priority = NonNullable<TicketPatch["priority"]>;

/** The context an automation acts with: the system's reach, with the automation named as the actor. */
export const automationContext = (workspaceId: string, automation: { id: string; name: string }): RequestContext => ({
  ...systemContext(workspaceId, `automation:${automation.id}`),
  automation: { id: automation.id, name: automation.name },
});

/**
 * A person running saved actions themselves (a macro): their context, so their permissions and
 * visibility apply, the activities and messages are theirs and required fields block a solve; and
 * how a stored message body becomes the one sent (placeholders filled; the result is sanitized again).
 */
export type PersonApplying = { ctx: RequestContext; messageBody: (html: string) => string };

export const AI_TRIAGE_UNAVAILABLE = "AI triage is not available on this instance yet";

/**
 * Applies the folded ticket changes. A label the workspace refuses on tickets (its applies_to, the
 * label limits) answers 422 before anything is written: the label actions are then noted as
 * skipped with the reason and the other changes still apply, so one misfit label never stalls the
 * engine on an event it would retry.
 */
async function applyPatch(
  ctx: RequestContext,
  deps: Deps,
  ticketId: string,
  patch: TicketPatch,
  patched: AutomationRunNote[],
  enforceRequired = false,
) {
  try {
    await updateTicket(ctx, ticketId, patch, deps, { enforceRequired });
  } catch (error) {
    const labels = patch.add_tags !== undefined || patch.remove_tags !== undefined;
    const aboutLabels =
      error instanceof DeskError &&
      error.status === 422 &&
      (error.errors ?? []).some((e) => /^body\.(add_tags|remove_tags)/.test(e.location));
    if (!labels || !aboutLabels) throw error;
    const reason = error.errors?.[0]?.message ?? error.detail;
    for (const note of patched)
      if (note.type === "add_tag" || note.type === "remove_tag") Object.assign(note, { result: "skipped", reason });
    const { add_tags: _added, remove_tags: _removed, ...rest } = patch;
    if (Object.keys(rest).length > 0) await updateTicket(ctx, ticketId, rest, deps, { enforceRequired });
  }
}

/** The automation as a run reads it. */
type RunAutomation = {
  id: string;
  name: string;
  conditions: AutomationCondition[];
  actions: AutomationAction[];
  allowCustomerReplyOnAiDecision: boolean;
};

/**
 * The ticket changes of an automation's actions folded into one patch; `patched` gets the applied
 * ones, `notes` the skipped ones (their target vanished since the automation was saved).
 */
async function patchOf(
  tx: Tx,
  workspaceId: string,
  actions: AutomationAction[],
  notes: AutomationRunNote[],
  patched: AutomationRunNote[],
): Promise<TicketPatch> {
  const patch: TicketPatch = {};
  const applied = (type: string) => patched.push({ type, result: "applied" });
  const skip = (type: string, reason: string) => notes.push({ type, result: "skipped", reason });
  for (const action of actions) {
    const { type, value } = action;
    switch (type) {
      case "set_status":
        patch.status = value as TicketStatus;
        applied(type);
        break;
      case "set_priority":
        patch.priority = value as Priority;
        applied(type);
        break;
      case "set_severity":
        patch.severity = value === "" ? null : (value as Severity);
        applied(type);
        break;
      case "assign_user": {
        const role = value === "" ? null : await memberRoleOf(tx, workspaceId, value);
        if (value !== "" && (!role || role === "viewer")) skip(type, "the user is no longer an assignable member");
        else {
          patch.assignee_id = value === "" ? null : value;
          applied(type);
        }
        break;
      }
      case "assign_team":
        if (value !== "" && !(await teamOfWorkspace(tx, workspaceId, value))) skip(type, "the team no longer exists");
        else {
          patch.team_id = value === "" ? null : value;
          applied(type);
        }
        break;
      case "add_tag":
        patch.add_tags = [...(patch.add_tags ?? []), value];
        patch.remove_tags = patch.remove_tags?.filter((name) => name.toLowerCase() !== value.toLowerCase());
        applied(type);
        break;
      case "remove_tag":
        patch.remove_tags = [...(patch.remove_tags ?? []), value];
        patch.add_tags = patch.add_tags?.filter((name) => name.toLowerCase() !== value.toLowerCase());
        applied(type);
        break;
      case "mark_spam":
        patch.spam = true;
        applied(type);
        break;
      case "set_field": {
        const def = (await fieldDefinitions(tx, workspaceId, "ticket")).find((d) => d.key === action.field);
        if (!def) skip(type, "the field was deleted");
        else if (def.archived) skip(type, "the field is archived");
        else {
          const typed = typedFieldValue(def, value);
          const checked = typed === null ? null : await checkFieldValue(tx, workspaceId, def, typed);
          if (checked && !checked.ok) skip(type, checked.message);
          else {
            patch.fields = { ...patch.fields, [def.key]: typed };
            applied(type);
          }
        }
        break;
      }
      case "send_reply":
      case "add_note":
      case "ai_triage":
        break;
    }
  }
  return patch;
}

/** Notes, replies and AI triage, after the ticket changes: replies go out through the mailbox like any reply. */
async function runMessageActions(
  tx: Tx,
  deps: Deps,
  ctx: RequestContext,
  automation: RunAutomation,
  ticket: { id: string; workspaceId: string },
  aiTriage: AiTriage | undefined,
  person: PersonApplying | undefined,
  notes: AutomationRunNote[],
): Promise<void> {
  // A rule saved before the flag existed may still pair them: the customer gets no mail on the model's word.
  const replyRefused = !automation.allowCustomerReplyOnAiDecision && aiRepliesToCustomer(automation);
  for (const action of automation.actions) {
    if (action.type === "send_reply" && replyRefused)
      notes.push({
        type: action.type,
        result: "skipped",
        reason: "ai_decide rules need allow_customer_reply_on_ai_decision",
      });
    else if (action.type === "send_reply" || action.type === "add_note") {
      await addMessage(
        ctx,
        ticket.id,
        person
          ? { kind: action.type === "send_reply" ? "reply" : "note", body_html: person.messageBody(action.value) }
          : {
              kind: action.type === "send_reply" ? "reply" : "note",
              body_html: action.value,
              body_html_sanitized: true,
              author: { type: "system" },
            },
        deps,
      );
      notes.push({ type: action.type, result: "applied" });
    } else if (action.type === "ai_triage") {
      const reason = aiTriage
        ? await aiTriage(
            tx,
            { workspaceId: ticket.workspaceId, ticketId: ticket.id, automationId: automation.id },
            deps,
          )
        : AI_TRIAGE_UNAVAILABLE;
      notes.push(
        reason === null ? { type: "ai_triage", result: "applied" } : { type: "ai_triage", result: "noop", reason },
      );
    }
  }
}

/**
 * Runs an automation's actions on one ticket in the caller's transaction, through the tickets' one
 * write API. The ticket changes are folded into one update (one ticket.updated, one activity per
 * change, attributed to the automation; required fields do not block a solve); then notes and
 * replies (replies go out through the mailbox like any reply, with its signature). Actions whose
 * target vanished since the automation was saved (a member, team or field) are skipped and noted.
 */
export async function runActions(
  tx: Tx,
  deps: Deps,
  automation: RunAutomation,
  ticket: { id: string; workspaceId: string },
  aiTriage: AiTriage | undefined,
  person?: PersonApplying,
): Promise<AutomationRunNote[]> {
  const ctx = person?.ctx ?? automationContext(ticket.workspaceId, automation);
  const notes: AutomationRunNote[] = [];
  const patched: AutomationRunNote[] = [];
  const patch = await patchOf(tx, ticket.workspaceId, automation.actions, notes, patched);
  if (patch.add_tags?.length === 0) delete patch.add_tags;
  if (patch.remove_tags?.length === 0) delete patch.remove_tags;
  if (Object.keys(patch).length > 0) await applyPatch(ctx, deps, ticket.id, patch, patched, person !== undefined);
  notes.push(...patched);
  await runMessageActions(tx, deps, ctx, automation, ticket, aiTriage, person, notes);
  return notes;
}
