import { z } from "zod";

/** Every event type a webhook can subscribe to (SPEC.md's event table), plus "*" for all. */
const RESOURCE_TYPES = [
  "saved_reply",
  "view",
  "automation",
  "sla_policy",
  "kb_article",
  "kb_collection",
  "team",
  "webhook",
].flatMap((r) => ["created", "updated", "deleted"].map((a) => `${r}.${a}`));
export const WEBHOOK_EVENT_TYPES = [
  "ticket.created",
  "ticket.updated",
  "ticket.deleted",
  "message.created",
  "message.updated",
  "activity.created",
  "contact.created",
  "contact.updated",
  "contact.deleted",
  "company.created",
  "company.updated",
  "company.deleted",
  "tag.created",
  "tag.updated",
  "tag.deleted",
  "tag.merged",
  "tag_group.created",
  "tag_group.updated",
  "tag_group.deleted",
  "custom_field.created",
  "custom_field.updated",
  "custom_field.deleted",
  "mailbox.created",
  "mailbox.updated",
  "mailbox.deleted",
  "member.added",
  "member.updated",
  "member.removed",
  "workspace.updated",
  "notification.created",
  "billing.updated",
  ...RESOURCE_TYPES,
] as const;

const EventList = z
  .array(
    z.string().refine((t) => t === "*" || (WEBHOOK_EVENT_TYPES as readonly string[]).includes(t), {
      message: "unknown event type",
    }),
  )
  .min(1)
  .max(100)
  .transform((list) => (list.includes("*") ? ["*"] : [...new Set(list)]));

const Url = z.string().trim().min(1).max(2000);
const TeamIds = z.array(z.string().min(1).max(100)).max(100);

export const CreateWebhookBody = z
  .object({
    url: Url,
    description: z.string().max(500).optional(),
    events: EventList,
    enabled: z.boolean().optional(),
    team_ids: TeamIds.optional(),
  })
  .strict();

export const UpdateWebhookBody = z
  .object({
    url: Url.optional(),
    description: z.string().max(500).optional(),
    events: EventList.optional(),
    enabled: z.boolean().optional(),
    team_ids: TeamIds.optional(),
  })
  .strict();

export const WebhookSchema = z.object({
  id: z.string(),
  url: z.string(),
  description: z.string(),
  events: z.array(z.string()),
  team_ids: z.array(z.string()).describe("private teams whose events this endpoint receives in full"),
  enabled: z.boolean(),
  created_at: z.string(),
  updated_at: z.string(),
});

export const CreatedWebhookSchema = WebhookSchema.extend({
  secret: z.string().describe("the signing secret, shown only in this answer"),
});

export const DeliverySchema = z.object({
  id: z.string(),
  webhook_id: z.string(),
  event_id: z.string(),
  event_type: z.string(),
  status: z.enum(["pending", "succeeded", "failed"]),
  attempts: z.number(),
  response_code: z.number().nullable(),
  duration_ms: z.number().nullable(),
  response_excerpt: z.string().nullable().describe("the first KiB of the last response body"),
  error: z.string().nullable().describe("why the last attempt failed"),
  next_attempt_at: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
