import { defineModule } from "../module";
import { closeImapSessions, mailboxSyncJob, registerMailboxSyncScheduling } from "./inbound.imap";
import { inboundRoutes } from "./inbound.routes";
import { startInboundSmtp } from "./inbound.smtp";

/** Mail comes in through three doors: the SMTP receiver, the HTTP inbound route and the IMAP poller. */
export const inboundModule = defineModule({
  name: "inbound",
  routes: (deps) => [inboundRoutes(deps)],
  jobs: [mailboxSyncJob],
  // Outbox: a mailbox that fetches its mail gets its sync job with the change that set it up.
  inTransaction: (deps) => registerMailboxSyncScheduling(deps.db),
  async start(deps) {
    // The sync jobs hold IMAP connections (IDLE); shutdown closes them so the jobs end at once.
    const imap = { name: "imap", stop: () => closeImapSessions(deps.db) };
    if (deps.config.smtpPort <= 0) return [imap];
    const smtp = await startInboundSmtp(deps);
    return [imap, { name: "smtp", port: smtp.port, stop: () => smtp.close() }];
  },
});
