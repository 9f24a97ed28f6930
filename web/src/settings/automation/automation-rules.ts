import { CHANNELS, type CustomField, PRIORITIES, SEVERITIES, STATUSES } from "../../lib/api/types";

/** What the automation builder offers: SPEC.md's condition fields, operators and action types. */
export const TRIGGERS = [
  { id: "ticket_created", label: "Ticket is created" },
  { id: "customer_replied", label: "Customer replies" },
  { id: "agent_replied", label: "Agent replies" },
  { id: "ticket_updated", label: "Ticket is updated" },
  { id: "time", label: "Time passes (checked every minute)" },
] as const;
export type TriggerId = (typeof TRIGGERS)[number]["id"];
export const triggerLabel = (id: string) => TRIGGERS.find((t) => t.id === id)?.label ?? id;

export type DraftCondition = { field: string; op: string; value: string; question?: string };
export type DraftAction = { type: string; value: string; field?: string };

export const BASE_FIELDS: Array<{ id: string; label: string }> = [
  { id: "subject", label: "Subject" },
  { id: "body", label: "Message text" },
  { id: "from_email", label: "Sender email" },
  { id: "channel", label: "Channel" },
  { id: "mailbox_id", label: "Mailbox" },
  { id: "priority", label: "Priority" },
  { id: "severity", label: "Severity" },
  { id: "status", label: "Status" },
  { id: "tag", label: "Label" },
  { id: "sentiment", label: "Sentiment (AI)" },
  { id: "ai_decide", label: "AI decides (question)" },
];

/** The conditions of the time trigger: hours since a ticket time, and its SLA. */
export const TIME_FIELDS: Array<{ id: string; label: string }> = [
  { id: "hours_since_created", label: "Hours since created" },
  { id: "hours_since_status_changed", label: "Hours since status changed" },
  { id: "hours_since_customer_message", label: "Hours since customer message" },
  { id: "hours_since_agent_message", label: "Hours since agent message" },
  { id: "sla", label: "SLA" },
];
const AI_FIELDS = ["sentiment", "ai_decide"];
export const isTimeField = (field: string) => TIME_FIELDS.some((f) => f.id === field);
export const isHoursField = (field: string) => field.startsWith("hours_since_");

/** The fields a trigger's conditions may name: time rules read no message, so no AI; event rules no hours or SLA. */
export const fieldsFor = (trigger: string) =>
  trigger === "time" ? [...BASE_FIELDS.filter((f) => !AI_FIELDS.includes(f.id)), ...TIME_FIELDS] : BASE_FIELDS;
export const fieldLabel = (id: string) => [...BASE_FIELDS, ...TIME_FIELDS].find((f) => f.id === id)?.label ?? id;

const OP_LABELS: Record<string, string> = {
  contains: "contains",
  not_contains: "does not contain",
  equals: "is",
  not_equals: "is not",
  gt: "greater than",
  gte: "at least",
  lt: "less than",
  lte: "at most",
  any: "is any of",
  all: "has all of",
  none: "is none of",
  set: "is set",
  not_set: "is not set",
  eq: "is",
  ne: "is not",
  breached: "is breached",
  due_within_minutes: "is due within (minutes)",
};
export const opLabel = (op: string) => OP_LABELS[op] ?? op;

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

export const ACTIONS: Array<{ id: string; label: string }> = [
  { id: "set_status", label: "Set status" },
  { id: "set_priority", label: "Set priority" },
  { id: "set_severity", label: "Set severity" },
  { id: "assign_user", label: "Assign to member" },
  { id: "assign_team", label: "Assign to team" },
  { id: "add_tag", label: "Add label" },
  { id: "remove_tag", label: "Remove label" },
  { id: "send_reply", label: "Send reply" },
  { id: "add_note", label: "Add internal note" },
  { id: "mark_spam", label: "Mark as spam" },
  { id: "ai_triage", label: "Run AI triage" },
  { id: "set_field", label: "Set custom field" },
];
export const actionLabel = (id: string) => ACTIONS.find((a) => a.id === id)?.label ?? id;

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
