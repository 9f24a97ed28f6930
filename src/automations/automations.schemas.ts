import { z } from "zod";

export const TRIGGERS = ["ticket_created", "customer_replied", "agent_replied", "ticket_updated", "time"] as const;
export type AutomationTrigger = (typeof TRIGGERS)[number];

export const ACTION_TYPES = [
  "set_status",
  "set_priority",
  "set_severity",
  "assign_user",
  "assign_team",
  "add_tag",
  "remove_tag",
  "send_reply",
  "add_note",
  "mark_spam",
  "ai_triage",
  "set_field",
] as const;
export type ActionType = (typeof ACTION_TYPES)[number];

/** The condition fields of SPEC.md besides the custom-field ones (`field.<key>`, `contact.field.<key>`). */
export const CONDITION_FIELDS = [
  "subject",
  "body",
  "from_email",
  "channel",
  "mailbox_id",
  "priority",
  "severity",
  "status",
  "tag",
  "sentiment",
  "ai_decide",
  "hours_since_created",
  "hours_since_status_changed",
  "hours_since_customer_message",
  "hours_since_agent_message",
  "sla",
] as const;

const FIELD_RE =
  /^(?:subject|body|from_email|channel|mailbox_id|priority|severity|status|tag|sentiment|ai_decide|hours_since_(?:created|status_changed|customer_message|agent_message)|sla|field\.[a-z][a-z0-9_]{0,39}|contact\.field\.[a-z][a-z0-9_]{0,39})$/;

export const ConditionSchema = z.strictObject({
  field: z
    .string()
    .regex(FIELD_RE, `a condition field is one of ${CONDITION_FIELDS.join(", ")}, field.<key> or contact.field.<key>`),
  op: z.string().min(1).max(20),
  /** Text for every field; a probability (number) for ai_decide; hours or minutes (number) for the time conditions. */
  value: z.union([z.string().max(1000), z.number()]),
  /** ai_decide only: the yes/no question put to the decision engine (3 to 300 plain-text characters). */
  question: z.string().max(1000).optional(),
});
/**
 * `tag_id` is stored, never on the wire: a `tag` condition naming an existing label keeps its id, so
 * renames and merges follow the label (the name shown is kept in step by the label cascade).
 */
export type AutomationCondition = z.infer<typeof ConditionSchema> & { tag_id?: string };

export const ActionSchema = z.strictObject({
  type: z.enum(ACTION_TYPES),
  /** A status, priority, severity, user or team id, label name, message HTML or field value as text (see the route description). */
  value: z.string().max(100_000).default(""),
  /** set_field only: the ticket custom field's key. */
  field: z.string().max(40).optional(),
});
/** `tag_id` (stored only): the label an add_tag/remove_tag action names, as for conditions. */
export type AutomationAction = { type: ActionType; value: string; field?: string; tag_id?: string };

export const AutomationSchema = z.object({
  id: z.string(),
  name: z.string(),
  trigger: z.enum(TRIGGERS),
  conditions: z.array(ConditionSchema),
  actions: z.array(z.object({ type: z.enum(ACTION_TYPES), value: z.string(), field: z.string().optional() })),
  enabled: z.boolean(),
  allow_customer_reply_on_ai_decision: z.boolean(),
  position: z.number(),
  run_count: z.number(),
  last_run_at: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});

const Name = z.string().trim().min(1).max(100);
const Position = z.number().int().min(0).max(1_000_000);
export const CreateAutomationBody = z.strictObject({
  name: Name,
  trigger: z.enum(TRIGGERS),
  conditions: z.array(ConditionSchema).max(20).default([]),
  actions: z.array(ActionSchema).min(1).max(20),
  enabled: z.boolean().optional(),
  allow_customer_reply_on_ai_decision: z.boolean().optional(),
  position: Position.optional(),
});
export const UpdateAutomationBody = z.strictObject({
  name: Name.optional(),
  trigger: z.enum(TRIGGERS).optional(),
  conditions: z.array(ConditionSchema).max(20).optional(),
  actions: z.array(ActionSchema).min(1).max(20).optional(),
  enabled: z.boolean().optional(),
  allow_customer_reply_on_ai_decision: z.boolean().optional(),
  position: Position.optional(),
});
export type CreateAutomationInput = z.infer<typeof CreateAutomationBody>;
export type UpdateAutomationInput = z.infer<typeof UpdateAutomationBody>;

/** A condition of a time rule as it held when the rule acted: `actual` is the ticket's value (hours, minutes, breached). */
export const MatchedConditionSchema = z.object({
  field: z.string(),
  op: z.string(),
  value: z.union([z.string(), z.number()]),
  actual: z.union([z.string(), z.number()]).nullable(),
});
export type MatchedCondition = z.infer<typeof MatchedConditionSchema>;

export const AutomationRunSchema = z.object({
  id: z.string(),
  automation_id: z.string(),
  event_id: z.string(),
  ticket_id: z.string(),
  /** For the link; null when the ticket is gone or in a private team the reader is not in. */
  ticket_number: z.number().nullable(),
  outcome: z.enum(["applied", "stopped"]),
  /** `event` (a ticket or message event) or `time` (a pass of the time rules; event_id is then time:<id>). */
  trigger: z.enum(["event", "time"]),
  /** Time runs: every condition with the ticket's value when the rule acted (why it fired). */
  matched: z.array(MatchedConditionSchema),
  depth: z.number(),
  notes: z.array(
    z.object({ type: z.string(), result: z.enum(["applied", "skipped", "noop"]), reason: z.string().optional() }),
  ),
  created_at: z.string(),
});
