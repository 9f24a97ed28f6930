import { defineModule } from "../module";
import { autoReplyJob, registerOutboundMailHook, sendReplyJob } from "./outbound.mail";

export const outboundModule = defineModule({
  name: "outbound",
  jobs: [sendReplyJob, autoReplyJob],
  // Outbox: the send job of an outbound reply exists exactly when its message does.
  inTransaction: (deps) => registerOutboundMailHook(deps),
});
