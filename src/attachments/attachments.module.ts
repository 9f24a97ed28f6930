import { defineModule } from "../module";
import { removeOrphanAttachmentsJob } from "./attachments.jobs";
import { attachmentsRoutes } from "./attachments.routes";

export const attachmentsModule = defineModule({
  name: "attachments",
  routes: (deps) => [attachmentsRoutes(deps)],
  jobs: [removeOrphanAttachmentsJob],
});
