import { defineModule } from "../module";
import { webhookEvents } from "./webhooks.events";
import { forgetEndpointsOnChange } from "./webhooks.cache";
import { deliverWebhookJob, registerWebhookFanOut } from "./webhooks.delivery";
import { endpointWorkerJob, sweepEndpointsJob } from "./webhooks.worker";
import { webhooksRoutes } from "./webhooks.routes";

export const webhooksModule = defineModule({
  name: "webhooks",
  events: webhookEvents,
  routes: (deps) => [webhooksRoutes(deps)],
  jobs: [endpointWorkerJob, sweepEndpointsJob, deliverWebhookJob],
  // Outbox: a delivery row, and a worker for its endpoint, exist exactly when their event does; the
  // endpoints each node caches for it are forgotten when any node changes them.
  inTransaction: (deps) => {
    registerWebhookFanOut(deps.db);
    forgetEndpointsOnChange(deps.db);
  },
});
