import { defineModule } from "../module";
import { reportsRoutes } from "./reports.routes";

export const reportsModule = defineModule({ name: "reports", routes: (deps) => [reportsRoutes(deps)] });
