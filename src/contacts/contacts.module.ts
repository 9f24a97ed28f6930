import { defineModule } from "../module";
import { contactEvents } from "./contacts.events";
import type { ContactMerged } from "./contacts.merge";
import { recordsExportRoutes } from "./contacts.export";
import { contactsRoutes } from "./contacts.routes";

/** `contactMerged` moves what other features keep by contact id (tickets), in the merge's transaction; the registry wires them. */
export const contactsModule = (cascade: { contactMerged: ContactMerged[] }) => {
  const contactMerged: ContactMerged = (...args) => {
    let moved = 0;
    for (const move of cascade.contactMerged) moved += move(...args);
    return moved;
  };
  return defineModule({
    name: "contacts",
    events: contactEvents,
    routes: (deps) => [recordsExportRoutes(deps), contactsRoutes(deps, { contactMerged })],
  });
};
