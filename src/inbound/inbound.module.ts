import { defineModule } from "../module";
import { autoReplyJob, registerOutboundMailHook, sendReplyJob } from "./inbound.outbound";
import { inboundRoutes } from "./inbound.routes";
import { startInboundSmtp } from "./inbound.smtp";

export const inboundModule = defineModule({
  name: "inbound",
  routes: (deps) => [inboundRoutes(deps)],
  jobs: [sendReplyJob, autoReplyJob],
  // Outbox: the send job of an outbound reply exists exactly when its message does.
  inTransaction: (deps) => registerOutboundMailHook(deps),
  async start(deps) {
    if (deps.config.smtpPort <= 0) return null;
    const smtp = await startInboundSmtp(deps);
    return { name: "smtp", port: smtp.port, stop: () => smtp.close() };
  },
});
