import { z } from "zod";
import { PageQuery, Timestamp } from "../http/schemas";
import { CHANNELS, PRIORITIES, SEVERITIES, TICKET_STATUSES } from "./tickets.table";

const LabelNames = z.array(z.string().max(100)).max(100);
const FieldsInput = z.record(z.string(), z.unknown());

export const UserRefSchema = z.object({
  id: z.string(),
  name: z.string(),
  email: z.string(),
  avatar_url: z.string().nullable(),
});
export const ContactRefSchema = z.object({
  id: z.string(),
  email: z.string().nullable(),
  name: z.string(),
  avatar_url: z.string().nullable(),
});
export const TagRefSchema = z.object({
  id: z.string(),
  name: z.string(),
  color: z.string(),
  group_id: z.string().nullable(),
});

export const TicketSchema = z.object({
  id: z.string(),
  number: z.number(),
  subject: z.string(),
  status: z.enum(TICKET_STATUSES),
  priority: z.enum(PRIORITIES),
  severity: z.enum(SEVERITIES).nullable(),
  channel: z.enum(CHANNELS),
  mailbox_id: z.string().nullable(),
  contact: ContactRefSchema.nullable(),
  assignee: UserRefSchema.nullable(),
  /** People who follow the ticket: they get the notifications its assignee gets (bar `assigned`). */
  followers: z.array(UserRefSchema),
  team_id: z.string().nullable(),
  tags: z.array(TagRefSchema),
  sla: z
    .object({
      policy_id: z.string().nullable(),
      first_response_due_at: z.string().nullable(),
      resolution_due_at: z.string().nullable(),
      breached: z.boolean(),
    })
    .nullable(),
  first_responded_at: z.string().nullable(),
  solved_at: z.string().nullable(),
  snoozed_until: z.string().nullable(),
  last_message_at: z.string(),
  last_customer_message_at: z.string().nullable(),
  last_message_preview: z.string(),
  message_count: z.number(),
  spam: z.boolean(),
  csat: z.object({ score: z.number(), comment: z.string() }).nullable(),
  custom: z.record(z.string(), z.unknown()),
  fields: z.record(z.string(), z.unknown()),
  merged_into_id: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});

export const TicketPatchBody = z
  .object({
    subject: z.string().trim().min(1).max(500),
    status: z.enum(TICKET_STATUSES),
    priority: z.enum(PRIORITIES),
    severity: z.enum(SEVERITIES).nullable(),
    assignee_id: z.string().max(100).nullable(),
    team_id: z.string().max(100).nullable(),
    snoozed_until: Timestamp.nullable(),
    spam: z.boolean(),
    tags: LabelNames,
    add_tags: LabelNames,
    remove_tags: LabelNames,
    fields: FieldsInput,
    custom: z.record(z.string(), z.unknown()),
  })
  .partial()
  .strict();
export type TicketPatch = z.infer<typeof TicketPatchBody>;

/** A body is given as HTML or as plain text (converted to paragraphs), exactly one of the two. */
export const oneBodyForm = (
  body: { body_html?: string; body_text?: string },
  ctx: z.RefinementCtx,
  required: boolean,
): void => {
  if (body.body_html !== undefined && body.body_text !== undefined) {
    ctx.addIssue({ code: "custom", path: ["body_text"], message: "give body_html or body_text, not both" });
  } else if (required && body.body_html === undefined && body.body_text === undefined) {
    ctx.addIssue({ code: "custom", path: ["body_html"], message: "give body_html or body_text" });
  }
};

export const CreateTicketBody = z
  .object({
    subject: z.string().trim().min(1).max(500),
    contact_id: z.string().max(100).optional(),
    contact: z
      .object({ email: z.email().max(320), name: z.string().max(200).nullable().optional() })
      .strict()
      .optional(),
    channel: z.enum(["email", "api"]).optional(),
    mailbox_id: z.string().max(100).nullable().optional(),
    body_html: z.string().max(1_000_000).optional(),
    body_text: z
      .string()
      .min(1)
      .max(1_000_000)
      .optional()
      .describe("the first message as plain text instead of body_html"),
    kind: z.enum(["reply", "note"]).optional(),
    priority: z.enum(PRIORITIES).optional(),
    severity: z.enum(SEVERITIES).nullable().optional(),
    assignee_id: z.string().max(100).nullable().optional(),
    team_id: z.string().max(100).nullable().optional(),
    tags: LabelNames.optional(),
    fields: FieldsInput.optional(),
    status: z.enum(TICKET_STATUSES).optional(),
    attachment_ids: z.array(z.string().max(100)).max(50).optional(),
  })
  .strict()
  .superRefine((body, ctx) => oneBodyForm(body, ctx, false));

export const BulkBody = z.union([
  z.object({ ids: z.array(z.string().max(100)).min(1).max(500), patch: TicketPatchBody }).strict(),
  z.object({ ids: z.array(z.string().max(100)).min(1).max(500), delete: z.literal(true) }).strict(),
]);
export const BulkResult = z.object({ updated: z.number(), ids: z.array(z.string()) });

/** SPEC.md: `into_id` is an "id or number": a UUID, a ticket number (JSON number or text) or `#n`. */
export const MergeBody = z
  .object({
    into_id: z
      .union([z.string().trim().min(1).max(100), z.number().int().positive().max(Number.MAX_SAFE_INTEGER)])
      .describe("the target ticket: its id, its number, or `#<number>`"),
  })
  .strict();

export const CountsSchema = z.object({
  unassigned: z.number(),
  mine: z.number(),
  open: z.number(),
  pending: z.number(),
  on_hold: z.number(),
  solved: z.number(),
  snoozed: z
    .number()
    .describe("non-spam tickets snoozed now; they are not counted in unassigned, mine, open, pending or on_hold"),
  spam: z.number(),
  views: z.record(z.string(), z.number()),
});

/** Elysia's query parser turns `a,b` into a list; filters take both forms and read them as text. */
export const queryText = (max: number) =>
  z
    .union([z.string().max(max), z.array(z.string().max(max)).max(50)])
    .transform((v) => (Array.isArray(v) ? v.join(",") : v));

/** Known list filters; `field.<key>` filters pass through (loose) and are parsed by the custom fields helper. */
export const TicketListQuery = PageQuery.extend({
  status: queryText(200).optional(),
  priority: queryText(200).optional(),
  severity: queryText(200).optional(),
  assignee: queryText(100).optional(),
  follower: queryText(100).optional().describe("me or a user id: only tickets that person follows"),
  team_id: queryText(100).optional(),
  mailbox_id: queryText(100).optional(),
  contact_id: queryText(100).optional(),
  view_id: queryText(100).optional(),
  tag: queryText(100).optional(),
  channel: z.enum(CHANNELS).optional(),
  q: queryText(500).optional(),
  spam: z.enum(["true", "false"]).optional(),
  snoozed: z
    .enum(["true", "false"])
    .optional()
    .describe("true: only tickets snoozed now; false: only tickets not snoozed (the working folders); absent: both"),
  sort: queryText(100).optional(),
  order: z.enum(["asc", "desc"]).optional(),
}).loose();
export type TicketListInput = z.infer<typeof TicketListQuery>;

export const ActivitySchema = z.object({
  id: z.string(),
  ticket_id: z.string(),
  type: z.string(),
  data: z.record(z.string(), z.unknown()),
  actor_type: z.string(),
  actor: z.object({
    type: z.string(),
    user: UserRefSchema.nullable(),
    /** Present when an automation made the change (type `automation`): the automation as named when it ran. */
    automation: z.object({ id: z.string(), name: z.string() }).optional(),
  }),
  created_at: z.string(),
});
