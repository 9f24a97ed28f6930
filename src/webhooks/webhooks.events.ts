import { z } from "zod";
import { defineEvent } from "../events/define";
import { WebhookSchema } from "./webhooks.schemas";

const options = { readScope: "settings:read" } as const;

export const webhookCreated = defineEvent("webhook.created", z.object({ webhook: WebhookSchema }), {
  ...options,
  description: "A webhook endpoint was created.",
});
export const webhookUpdated = defineEvent("webhook.updated", z.object({ webhook: WebhookSchema }), {
  ...options,
  description: "A webhook endpoint changed.",
});
export const webhookDeleted = defineEvent("webhook.deleted", z.object({ webhook_id: z.string() }), {
  ...options,
  description: "A webhook endpoint was deleted.",
});
/** Sent by POST /v1/webhooks/{id}/test to that endpoint only: no webhook subscribes to it. */
export const webhookTest = defineEvent("webhook.test", z.object({ webhook: WebhookSchema }), {
  ...options,
  subscribable: false,
  description: "A test delivery, sent only to the endpoint being tested.",
});
export const webhookEvents = [webhookCreated, webhookUpdated, webhookDeleted, webhookTest] as const;
