import { Elysia } from "elysia";
import type { Deps } from "../deps";
import { IdParams, completeList, completeListSchema } from "../http/schemas";
import {
  AutomationRunSchema,
  AutomationSchema,
  CreateAutomationBody,
  UpdateAutomationBody,
} from "./automations.schemas";
import {
  createAutomation,
  deleteAutomation,
  getAutomation,
  listAutomationRuns,
  listAutomations,
  presentAutomation,
  updateAutomation,
} from "./automations.service";

const settingsAccess = { role: "admin", scopes: ["settings:read", "settings:write"] } as const;

const RULES = `Conditions all hold for the automation to run (AND), in position order among the enabled automations of the trigger.
Triggers: ticket_created (a new ticket), customer_replied and agent_replied (a reply after the first message; replies written by automations are no agent replies), ticket_updated (any change to the ticket other than a message's bookkeeping, including changes made by other automations), time (checked every minute on live, non-spam tickets).
Time rules: conditions hours_since_created, hours_since_status_changed, hours_since_customer_message, hours_since_agent_message (gt/lt a number of hours, 0 to 87600; customer and agent message count replies, and before the first one the ticket's creation; replies by automations are no agent messages) and sla (breached, or due_within_minutes with a number of minutes above 0; both hold only on open, pending or on_hold tickets), combined with the other conditions except sentiment and ai_decide; at least one hours_since_* or sla condition is required (422 at body.conditions). A time rule acts on a ticket at most once until the ticket changes again by something other than this rule (its own actions, and what event rules do in reaction to them, do not count); each pass reads at most 2000 tickets per workspace through indexed ticket times, the rest wait for the next pass.
Condition fields: subject, body (the reply for the replied triggers, the first message otherwise), from_email (that message's sender when it came in, else the contact's address) with contains, not_contains, equals, not_equals (ignoring case);
channel, mailbox_id, priority, status, severity (sev1..sev4 or none) with equals, not_equals; tag with equals/not_equals (has / lacks the label) and contains/not_contains (a label name containing the text); a tag condition or add_tag/remove_tag action naming an existing label keeps that label through renames and merges (the value shows its current name);
sentiment (equals/not_equals a sentiment such as negative) and ai_decide (gt/lt a probability 0.01 to 0.99 with a question of 3 to 300 plain-text characters, at most 3) hold only when the AI engine answers;
field.<key> and contact.field.<key> with the list filters' operators of the field's type (equals means eq, not_equals ne).
Actions (value is text): set_status, set_priority, set_severity (empty clears), assign_user (a non-viewer member's id; empty unassigns), assign_team (empty clears), add_tag (exclusive groups apply), remove_tag, send_reply and add_note (HTML, sanitized at save; replies are sent through the ticket's mailbox with its signature), mark_spam, ai_triage, set_field (field: the ticket field key; value a number, true/false, a date, comma-separated option ids, or empty to clear).
Changes are attributed to the automation (activity actor type automation); required fields do not block its solve. Targets gone since saving (a member, team, archived or deleted field) are skipped at run time and noted on the run.
allow_customer_reply_on_ai_decision (default false): an automation with an ai_decide condition may run send_reply only when this is true (422 at body.allow_customer_reply_on_ai_decision otherwise). The question judges the customer's own text, which the customer can word to steer it, and the reply mails them at once; a rule stored without the flag skips send_reply at run time (noted on the run).
An automation never re-triggers itself, and a chain of automations stops (recorded as a stopped run) at depth 2. run_count counts applied runs; runs do not emit automation.updated.
422 errors are located at the index: body.conditions.<i>.<member>, body.actions.<i>.<member>.`;

export function automationsRoutes(deps: Deps) {
  return new Elysia({ prefix: "/automations", tags: ["automations"] })
    .use(deps.guard)
    .get("/", async ({ ctx }) => completeList(await listAutomations(deps.db, ctx.workspaceId)), {
      access: settingsAccess,
      response: { 200: completeListSchema(AutomationSchema) },
      detail: { summary: "Every automation of the workspace, by position", description: RULES },
    })
    .post(
      "/",
      async ({ ctx, body, set }) => {
        set.status = 201;
        return presentAutomation(await createAutomation(ctx, body, deps));
      },
      {
        access: settingsAccess,
        body: CreateAutomationBody,
        response: { 201: AutomationSchema },
        detail: {
          summary: "Create an automation (enabled unless told; placed last unless given a position)",
          description: RULES,
        },
      },
    )
    .get("/:id", async ({ ctx, params }) => await getAutomation(deps.db, ctx, params.id), {
      access: settingsAccess,
      params: IdParams,
      response: { 200: AutomationSchema },
      detail: { summary: "An automation" },
    })
    .get("/:id/runs", async ({ ctx, params }) => completeList(await listAutomationRuns(deps.db, ctx, params.id)), {
      access: settingsAccess,
      params: IdParams,
      response: { 200: completeListSchema(AutomationRunSchema) },
      detail: {
        summary: "An automation's 50 most recent runs, newest first",
        description:
          "Each run names the event and ticket and what each action did: applied, skipped (with why: a target gone since saving) or noop (ai_triage before the AI is available). A run stopped because the chain of automations was too deep has outcome stopped. Runs of time rules have trigger time (event_id time:<id>) and list in matched every condition with the ticket's value when the rule acted (hours, minutes until the SLA deadline, breached, the status). ticket_number is null when the ticket is gone or in a private team the reader is not in.",
      },
    })
    .patch(
      "/:id",
      async ({ ctx, params, body }) => presentAutomation(await updateAutomation(ctx, params.id, body, deps)),
      {
        access: settingsAccess,
        params: IdParams,
        body: UpdateAutomationBody,
        response: { 200: AutomationSchema },
        detail: { summary: "Change an automation (conditions and actions replace the whole list)", description: RULES },
      },
    )
    .delete(
      "/:id",
      async ({ ctx, params, set }) => {
        await deleteAutomation(ctx, params.id, deps);
        set.status = 204;
        return null;
      },
      { access: settingsAccess, params: IdParams, detail: { summary: "Delete an automation" } },
    );
}
