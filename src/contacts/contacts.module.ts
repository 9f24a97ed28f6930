import { defineModule } from "../module";
import { contactEvents } from "./contacts.events";
import { contactsRoutes } from "./contacts.routes";

export const contactsModule = defineModule({
  name: "contacts",
  events: contactEvents,
  routes: (deps) => [contactsRoutes(deps)],
});
