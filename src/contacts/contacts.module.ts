import { defineModule } from "../module";
import { contactsRoutes } from "./contacts.routes";

export const contactsModule = defineModule({ name: "contacts", routes: (deps) => [contactsRoutes(deps)] });
