import type { RequestContext } from "../auth/context";
import { checkFieldValue, fieldDefinitions } from "../custom-fields/custom-fields.public";
import type { Queryable } from "../db/database";
import { labelNamed, labelNameProblem, normalizeLabelName } from "../labels/labels.public";
import { DeskError, invalidAt, validationFailed, type FieldError } from "../lib/errors";
import { sanitizeHtmlBody } from "../lib/sanitize";
import { mailboxById } from "../mailboxes/mailboxes.public";
import { memberRoleOf } from "../members/members.public";
import { teamOfWorkspace } from "../teams/teams.public";
import { CHANNELS, PRIORITIES, SEVERITIES, TICKET_STATUSES } from "../tickets/tickets.public";
import { fieldConditionSql, typedFieldValue } from "./automations.fields";
import type { AutomationAction, AutomationCondition, AutomationTrigger } from "./automations.schemas";
import { checkTimeCondition, checkTimeRule } from "./automations.time";

/** SPEC.md Limits: ai_decide conditions per automation, question length, probability range. */
export const MAX_AI_DECIDE = 3;
const TEXT_OPS = ["contains", "not_contains", "equals", "not_equals"];
const EQUALITY_OPS = ["equals", "not_equals"];

const oneOf = (values: readonly string[]) => (value: string) => values.includes(value);

/** Fields compared for equality against a fixed list of values. */
const ENUM_FIELDS: Record<string, readonly string[]> = {
  channel: CHANNELS,
  priority: PRIORITIES,
  severity: [...SEVERITIES, "none"],
  status: TICKET_STATUSES,
};

/**
 * Checks every condition and action against SPEC.md and the workspace's records (mailboxes,
 * members, teams, labels, custom fields) and answers them normalized (label names tidied, HTML
 * sanitized, ai_decide probabilities as numbers). Every problem is reported at once, each located
 * at its index (`body.conditions.1.value`); nothing is stored when any is found.
 */
export async function checkAutomation(
  db: Queryable,
  ctx: RequestContext,
  input: { conditions?: AutomationCondition[]; actions?: AutomationAction[]; trigger?: AutomationTrigger },
): Promise<{ conditions?: AutomationCondition[]; actions?: AutomationAction[] }> {
  const errors: FieldError[] = [];
  // One at a time, in order: the errors are reported in the order of the conditions.
  let conditions: AutomationCondition[] | undefined;
  if (input.conditions) {
    conditions = [];
    for (const [i, c] of input.conditions.entries())
      conditions.push(
        checkTimeCondition(c, input.trigger, `body.conditions.${i}`, errors) ??
          (await checkCondition(db, ctx, c, `body.conditions.${i}`, errors)),
      );
  }
  if (input.trigger === "time" && input.conditions) checkTimeRule(input.conditions, errors);
  const aiDecide = input.conditions?.filter((c) => c.field === "ai_decide").length ?? 0;
  if (aiDecide > MAX_AI_DECIDE)
    errors.push({
      location: "body.conditions",
      message: `at most ${MAX_AI_DECIDE} ai_decide conditions per automation`,
    });
  let actions: AutomationAction[] | undefined;
  if (input.actions) {
    actions = [];
    for (const [i, a] of input.actions.entries())
      actions.push(await checkAction(db, ctx, a, `body.actions.${i}`, errors));
  }
  if (errors.length) throw validationFailed(errors);
  return { conditions, actions };
}

/** Why an ai_decide rule may not mail the customer without its flag (the route's description says it too). */
export const AI_REPLY_CONSENT =
  "An ai_decide condition is the model's judgement of the customer's own text, which the customer can steer; " +
  "a send_reply it triggers mails the customer at once. Set allow_customer_reply_on_ai_decision to true to confirm.";

/**
 * An automation whose ai_decide condition triggers send_reply needs its explicit per-rule flag: checked
 * at save on the automation as it will be stored (a PATCH of one part is judged with the others).
 */
export function checkAiReplyConsent(rule: {
  conditions: AutomationCondition[];
  actions: AutomationAction[];
  allowCustomerReplyOnAiDecision: boolean;
}): void {
  if (rule.allowCustomerReplyOnAiDecision || !aiRepliesToCustomer(rule)) return;
  throw invalidAt("body.allow_customer_reply_on_ai_decision", AI_REPLY_CONSENT);
}

export const aiRepliesToCustomer = (rule: { conditions: AutomationCondition[]; actions: AutomationAction[] }) =>
  rule.conditions.some((c) => c.field === "ai_decide") && rule.actions.some((a) => a.type === "send_reply");

/** Keeps the id of the label a tag condition or action names, when it exists (it may be created at run time). */
async function withLabelId<T extends { value: string | number; tag_id?: string }>(
  db: Queryable,
  ctx: RequestContext,
  item: T,
): Promise<T> {
  const label = await labelNamed(db, ctx.workspaceId, String(item.value));
  return label ? { ...item, tag_id: label.id } : item;
}

async function checkCondition(
  db: Queryable,
  ctx: RequestContext,
  condition: AutomationCondition,
  at: string,
  errors: FieldError[],
): Promise<AutomationCondition> {
  const { field, op } = condition;
  const fail = (where: string, message: string) => {
    errors.push({ location: `${at}.${where}`, message });
    return condition;
  };
  if (condition.question !== undefined && field !== "ai_decide")
    return fail("question", "only ai_decide conditions take a question");
  if (field === "ai_decide") {
    if (op !== "gt" && op !== "lt") return fail("op", "ai_decide takes gt or lt");
    const probability = typeof condition.value === "number" ? condition.value : Number(condition.value);
    if (!Number.isFinite(probability) || probability < 0.01 || probability > 0.99)
      return fail("value", "ai_decide takes a probability from 0.01 to 0.99");
    const question = (condition.question ?? "").trim();
    if (question.length < 3 || question.length > 300) return fail("question", "a question has 3 to 300 characters");
    if (/[<>]/.test(question)) return fail("question", "a question is plain text (no < or >)");
    return { field, op, value: probability, question };
  }
  const value = typeof condition.value === "number" ? String(condition.value) : condition.value.trim();
  if (field.startsWith("field.") || field.startsWith("contact.field.")) {
    const entity = field.startsWith("contact.") ? "contact" : "ticket";
    const key = field.slice(entity === "contact" ? "contact.field.".length : "field.".length);
    try {
      await fieldConditionSql(db, ctx, entity, key, op, value);
    } catch (error) {
      if (!(error instanceof DeskError)) throw error;
      const message = error.errors?.[0]?.message ?? error.detail;
      return fail(
        /operators/.test(message) ? "op" : /no .* field has the key/.test(message) ? "field" : "value",
        message,
      );
    }
    return { field, op, value };
  }
  const textual = field === "subject" || field === "body" || field === "from_email" || field === "tag";
  const ops = textual ? TEXT_OPS : EQUALITY_OPS;
  if (!ops.includes(op)) return fail("op", `${field} takes ${ops.join(", ")}`);
  if (value === "") return fail("value", "a condition needs a value");
  const allowed = ENUM_FIELDS[field];
  if (allowed) {
    if (!oneOf(allowed)(value)) return fail("value", `${field} is one of ${allowed.join(", ")}`);
    return { field, op, value };
  }
  if (field === "mailbox_id") {
    if ((await mailboxById(db, value))?.workspaceId !== ctx.workspaceId)
      return fail("value", "no mailbox of this workspace has this id");
    return { field, op, value };
  }
  if (field === "tag" && EQUALITY_OPS.includes(op)) {
    const name = normalizeLabelName(value);
    const problem = labelNameProblem(name);
    if (problem) return fail("value", problem);
    return await withLabelId(db, ctx, { field, op, value: name });
  }
  // "contains" compares text, but a value naming a whole label (what the builder's list offers) follows it too.
  if (field === "tag") return await withLabelId(db, ctx, { field, op, value });
  if (field === "sentiment" && value.length > 50) return fail("value", "a sentiment has at most 50 characters");
  return { field, op, value: field === "sentiment" ? value.toLowerCase() : value };
}

async function checkAction(
  db: Queryable,
  ctx: RequestContext,
  action: AutomationAction,
  at: string,
  errors: FieldError[],
): Promise<AutomationAction> {
  const fail = (where: string, message: string) => {
    errors.push({ location: `${at}.${where}`, message });
    return action;
  };
  const { type } = action;
  if (action.field !== undefined && type !== "set_field") return fail("field", "only set_field takes a field");
  const value = type === "send_reply" || type === "add_note" ? action.value : action.value.trim();
  switch (type) {
    case "set_status":
      return oneOf(TICKET_STATUSES)(value)
        ? { type, value }
        : fail("value", `a status is one of ${TICKET_STATUSES.join(", ")}`);
    case "set_priority":
      return oneOf(PRIORITIES)(value)
        ? { type, value }
        : fail("value", `a priority is one of ${PRIORITIES.join(", ")}`);
    case "set_severity":
      return value === "" || oneOf(SEVERITIES)(value)
        ? { type, value }
        : fail("value", "a severity is sev1 to sev4, or empty to clear");
    case "assign_user": {
      if (value === "") return { type, value };
      const role = await memberRoleOf(db, ctx.workspaceId, value);
      if (!role || role === "viewer")
        return fail("value", "the assignee is a member of this workspace who is not a viewer (empty unassigns)");
      return { type, value };
    }
    case "assign_team":
      if (value !== "" && !(await teamOfWorkspace(db, ctx.workspaceId, value)))
        return fail("value", "no team of this workspace has this id (empty clears the team)");
      return { type, value };
    case "add_tag":
    case "remove_tag": {
      const name = normalizeLabelName(value);
      const problem = labelNameProblem(name);
      return problem ? fail("value", problem) : await withLabelId(db, ctx, { type, value: name });
    }
    case "send_reply":
    case "add_note": {
      const html = sanitizeHtmlBody(value);
      if (html.trim() === "") return fail("value", "the message has no content left after sanitizing");
      return { type, value: html };
    }
    case "mark_spam":
    case "ai_triage":
      return { type, value: "" };
    case "set_field": {
      if (!action.field) return fail("field", "set_field names the ticket field's key");
      const def = (await fieldDefinitions(db, ctx.workspaceId, "ticket")).find((d) => d.key === action.field);
      if (!def) return fail("field", `no ticket field has the key ${action.field.slice(0, 40)}`);
      if (def.archived) return fail("field", `the field ${def.key} is archived and refuses changes`);
      const typed = typedFieldValue(def, value);
      if (typed !== null) {
        const checked = await checkFieldValue(db, ctx.workspaceId, def, typed);
        if (!checked.ok) return fail("value", checked.message);
      }
      return { type, value, field: def.key };
    }
  }
}
