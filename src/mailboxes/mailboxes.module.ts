import { defineModule } from "../module";
import { mailboxEvents } from "./mailboxes.events";
import { mailboxesRoutes } from "./mailboxes.routes";

export const mailboxesModule = defineModule({
  name: "mailboxes",
  events: mailboxEvents,
  routes: (deps) => [mailboxesRoutes(deps)],
});
