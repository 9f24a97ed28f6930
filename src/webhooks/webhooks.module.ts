import { defineModule } from "../module";
import { webhookEvents } from "./webhooks.events";
import { deliverWebhookJob, registerWebhookFanOut } from "./webhooks.delivery";
import { webhooksRoutes } from "./webhooks.routes";

export const webhooksModule = defineModule({
  name: "webhooks",
  events: webhookEvents,
  routes: (deps) => [webhooksRoutes(deps)],
  jobs: [deliverWebhookJob],
  // Outbox: a delivery row and its job exist exactly when their event does.
  inTransaction: (deps) => void registerWebhookFanOut(deps.db),
});
