import { z } from "zod";

/**
 * The event types a webhook may list, or `*` for all: the subscribable types of the event
 * catalogue, which Desk builds at start from the registered modules (`deps.events.subscribable`),
 * so this feature names none of them. The OpenAPI document shows them as the enum.
 */
const eventList = (types: readonly string[]) =>
  z
    .array(
      z
        .string()
        .refine((t) => t === "*" || types.includes(t), { message: "unknown event type" })
        .meta({ enum: ["*", ...types] }),
    )
    .min(1)
    .max(100)
    .transform((list) => (list.includes("*") ? ["*"] : [...new Set(list)]));

const Url = z.string().trim().min(1).max(2000);
const TeamIds = z.array(z.string().min(1).max(100)).max(100);

/** The request bodies, for the subscribable event types of the catalogue. */
export function webhookBodies(eventTypes: readonly string[]) {
  const events = eventList(eventTypes);
  return {
    create: z
      .object({
        url: Url,
        description: z.string().max(500).optional(),
        events,
        enabled: z.boolean().optional(),
        team_ids: TeamIds.optional(),
      })
      .strict(),
    update: z
      .object({
        url: Url.optional(),
        description: z.string().max(500).optional(),
        events: events.optional(),
        enabled: z.boolean().optional(),
        team_ids: TeamIds.optional(),
      })
      .strict(),
  };
}

export const WebhookSchema = z.object({
  id: z.string(),
  url: z.string(),
  description: z.string(),
  events: z.array(z.string()),
  team_ids: z.array(z.string()).describe("private teams whose events this endpoint receives in full"),
  enabled: z.boolean(),
  consecutive_failures: z
    .number()
    .describe("failed delivery attempts in a row; at 5 the endpoint is paused (circuit open), a success resets it"),
  paused_until: z
    .string()
    .nullable()
    .describe(
      "while in the future, deliveries wait instead of being sent (no attempt is spent); the pause doubles with each further failure, 1 minute to 1 hour",
    ),
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
