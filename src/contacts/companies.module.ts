import { defineModule } from "../module";
import { companiesRoutes } from "./companies.routes";

export const companiesModule = defineModule({ name: "companies", routes: (deps) => [companiesRoutes(deps)] });
