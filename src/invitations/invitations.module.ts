import { defineModule } from "../module";
import { invitationMailJob } from "./invitations.mail";
import { invitationsRoutes } from "./invitations.routes";

export const invitationsModule = defineModule({
  name: "invitations",
  routes: (deps) => [invitationsRoutes(deps)],
  jobs: [invitationMailJob],
});
