import { defineModule } from "../module";
import { companyEvents } from "./contacts.events";
import { companiesRoutes } from "./companies.routes";

export const companiesModule = defineModule({
  name: "companies",
  events: companyEvents,
  routes: (deps) => [companiesRoutes(deps)],
});
