import { defineModule } from "../module";
import { mailboxesRoutes } from "./mailboxes.routes";

export const mailboxesModule = defineModule({ name: "mailboxes", routes: (deps) => [mailboxesRoutes(deps)] });
