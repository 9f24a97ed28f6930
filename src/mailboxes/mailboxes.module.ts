import { defineModule } from "../module";
import { mailboxesRoutes } from "./mailboxes.routes";
import { closeImapSessions, mailboxSyncJob } from "./mailboxes.sync";

export const mailboxesModule = defineModule({
  name: "mailboxes",
  routes: (deps) => [mailboxesRoutes(deps)],
  jobs: [mailboxSyncJob],
  // The sync jobs hold IMAP connections (IDLE); shutdown closes them so the jobs end at once.
  start: (deps) => ({ name: "imap", stop: () => closeImapSessions(deps.db) }),
});
