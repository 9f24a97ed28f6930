import { defineModule } from "../module";
import { billingRoutes } from "./billing.routes";

export const billingModule = defineModule({
  name: "billing",
  routes: (deps) => [billingRoutes(deps)],
});
