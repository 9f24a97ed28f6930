import { defineModule } from "../module";
import { autoReplyJob, registerOutboundMailHook, sendReplyJob } from "./outbound.mail";
import { workspaceSettingsReader } from "./outbound.locale";
import { outboundRoutes } from "./outbound.routes";

export const outboundModule = defineModule({
  name: "outbound",
  routes: (deps) => [outboundRoutes(deps)],
  jobs: [sendReplyJob, autoReplyJob],
  ports: [workspaceSettingsReader],
  // Outbox: the send job of an outbound reply exists exactly when its message does.
  inTransaction: (deps) => registerOutboundMailHook(deps),
});
