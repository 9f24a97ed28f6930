import { defineResource } from "../../lib/realtime/invalidation";

export const webhooksKeys = {
  list: ["webhooks"] as const,
  deliveries: (webhookId: string) => ["webhooks", webhookId, "deliveries"] as const,
};

export const webhooksResource = defineResource({
  name: "webhooks",
  keys: webhooksKeys,
  events: [{ on: ["webhook.*"], invalidate: () => [webhooksKeys.list] }],
});

export const apiKeysKeys = { list: ["api-keys"] as const };
