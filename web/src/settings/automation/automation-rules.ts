import { CHANNELS, type CustomField, PRIORITIES, SEVERITIES, STATUSES } from "../../lib/api/types";
import { type MessageKey, t } from "../../lib/i18n/i18n";

/**
 * What the automation builder offers: SPEC.md's condition fields, operators and action types. Each
 * names its label's message, read with `t` at render so it follows the member's language.
 */
export const TRIGGERS = [
  { id: "ticket_created", label: "workflow.triggerTicketCreated" },
  { id: "customer_replied", label: "workflow.triggerCustomerReplied" },
  { id: "agent_replied", label: "workflow.triggerAgentReplied" },
  { id: "ticket_updated", label: "workflow.triggerTicketUpdated" },
  { id: "time", label: "workflow.triggerTime" },
] as const satisfies ReadonlyArray<{ id: string; label: MessageKey }>;
export type TriggerId = (typeof TRIGGERS)[number]["id"];
/** A choice of the builder: its wire value and the message of its label. */
export type Choice = { id: string; label: MessageKey };
const labelOf = (choices: readonly Choice[], id: string) => {
  const choice = choices.find((c) => c.id === id);
  return choice ? t(choice.label) : id;
};
export const triggerLabel = (id: string) => labelOf(TRIGGERS, id);

export type DraftCondition = { field: string; op: string; value: string; question?: string };
export type DraftAction = { type: string; value: string; field?: string };

export const BASE_FIELDS: Choice[] = [
  { id: "subject", label: "workflow.fieldSubject" },
  { id: "body", label: "workflow.fieldBody" },
  { id: "from_email", label: "workflow.fieldFromEmail" },
  { id: "channel", label: "workflow.fieldChannel" },
  { id: "mailbox_id", label: "workflow.fieldMailbox" },
  { id: "priority", label: "workflow.fieldPriority" },
  { id: "severity", label: "workflow.fieldSeverity" },
  { id: "status", label: "workflow.fieldStatus" },
  { id: "tag", label: "workflow.fieldLabel" },
  { id: "sentiment", label: "workflow.fieldSentiment" },
  { id: "ai_decide", label: "workflow.fieldAiDecide" },
];

/** The conditions of the time trigger: hours since a ticket time, and its SLA. */
export const TIME_FIELDS: Choice[] = [
  { id: "hours_since_created", label: "workflow.fieldHoursSinceCreated" },
  { id: "hours_since_status_changed", label: "workflow.fieldHoursSinceStatusChanged" },
  { id: "hours_since_customer_message", label: "workflow.fieldHoursSinceCustomerMessage" },
  { id: "hours_since_agent_message", label: "workflow.fieldHoursSinceAgentMessage" },
  { id: "sla", label: "workflow.fieldSla" },
];
const AI_FIELDS = ["sentiment", "ai_decide"];
export const isTimeField = (field: string) => TIME_FIELDS.some((f) => f.id === field);
export const isHoursField = (field: string) => field.startsWith("hours_since_");

/** The fields a trigger's conditions may name: time rules read no message, so no AI; event rules no hours or SLA. */
export const fieldsFor = (trigger: string) =>
  trigger === "time" ? [...BASE_FIELDS.filter((f) => !AI_FIELDS.includes(f.id)), ...TIME_FIELDS] : BASE_FIELDS;
export const fieldLabel = (id: string) => labelOf([...BASE_FIELDS, ...TIME_FIELDS], id);

const OP_LABELS: Record<string, MessageKey> = {
  contains: "workflow.opContains",
  not_contains: "workflow.opNotContains",
  equals: "workflow.opIs",
  not_equals: "workflow.opIsNot",
  gt: "workflow.opGreaterThan",
  gte: "workflow.opAtLeast",
  lt: "workflow.opLessThan",
  lte: "workflow.opAtMost",
  any: "workflow.opAnyOf",
  all: "workflow.opAllOf",
  none: "workflow.opNoneOf",
  set: "workflow.opSet",
  not_set: "workflow.opNotSet",
  eq: "workflow.opIs",
  ne: "workflow.opIsNot",
  breached: "workflow.opBreached",
  due_within_minutes: "workflow.opDueWithin",
};
export const opLabel = (op: string) => {
  const key = OP_LABELS[op];
  return key ? t(key) : op;
};

/** Operators of the list filters by custom field type (SPEC.md); equals/not_equals read as eq/ne. */
const FIELD_OPS: Record<CustomField["type"], string[]> = {
  text: ["equals", "not_equals", "contains", "not_contains", "set", "not_set"],
  long_text: ["equals", "not_equals", "contains", "not_contains", "set", "not_set"],
  url: ["equals", "not_equals", "contains", "not_contains", "set", "not_set"],
  email: ["equals", "not_equals", "contains", "not_contains", "set", "not_set"],
  number: ["equals", "not_equals", "gt", "gte", "lt", "lte", "set", "not_set"],
  date: ["equals", "not_equals", "gt", "gte", "lt", "lte", "set", "not_set"],
  checkbox: ["equals", "not_equals", "set", "not_set"],
  select: ["equals", "not_equals", "any", "none", "set", "not_set"],
  user: ["equals", "not_equals", "any", "none", "set", "not_set"],
  multi_select: ["any", "all", "none", "equals", "not_equals", "set", "not_set"],
};

/** The custom field a condition names (`field.<key>` or `contact.field.<key>`), if any. */
export function customFieldOf(field: string, fields: CustomField[]): CustomField | undefined {
  const contact = field.startsWith("contact.field.");
  if (!contact && !field.startsWith("field.")) return undefined;
  const key = field.slice(contact ? "contact.field.".length : "field.".length);
  return fields.find((f) => f.key === key && f.entity === (contact ? "contact" : "ticket"));
}

export function operatorsFor(field: string, fields: CustomField[]): string[] {
  const custom = customFieldOf(field, fields);
  if (custom) return FIELD_OPS[custom.type];
  if (field === "ai_decide" || isHoursField(field)) return ["gt", "lt"];
  if (field === "sla") return ["due_within_minutes", "breached"];
  if (["subject", "body", "from_email", "tag"].includes(field))
    return ["contains", "not_contains", "equals", "not_equals"];
  return ["equals", "not_equals"];
}

/** Fixed choices of a field compared for equality. */
export const ENUM_VALUES: Record<string, readonly string[]> = {
  channel: CHANNELS,
  priority: PRIORITIES,
  severity: [...SEVERITIES, "none"],
  status: STATUSES,
};

export const ACTIONS: Choice[] = [
  { id: "set_status", label: "workflow.actionSetStatus" },
  { id: "set_priority", label: "workflow.actionSetPriority" },
  { id: "set_severity", label: "workflow.actionSetSeverity" },
  { id: "assign_user", label: "workflow.actionAssignUser" },
  { id: "assign_team", label: "workflow.actionAssignTeam" },
  { id: "add_tag", label: "workflow.actionAddTag" },
  { id: "remove_tag", label: "workflow.actionRemoveTag" },
  { id: "send_reply", label: "workflow.actionSendReply" },
  { id: "add_note", label: "workflow.actionAddNote" },
  { id: "mark_spam", label: "workflow.actionMarkSpam" },
  { id: "ai_triage", label: "workflow.actionAiTriage" },
  { id: "set_field", label: "workflow.actionSetField" },
];
export const actionLabel = (id: string) => labelOf(ACTIONS, id);

/** A sensible first value when the field or action type changes. */
export function defaultConditionValue(field: string): string {
  if (field === "ai_decide") return "0.5";
  if (isHoursField(field)) return "24";
  if (field === "sla") return "30";
  return ENUM_VALUES[field]?.[0] ?? "";
}
export function defaultActionValue(type: string): string {
  if (type === "set_status") return "solved";
  if (type === "set_priority") return "high";
  if (type === "set_severity") return "sev2";
  return "";
}
