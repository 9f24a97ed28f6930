import { defineModule } from "../module";
import { fieldEvents } from "./fields.events";
import { fieldsRoutes } from "./fields.routes";

export const fieldsModule = defineModule({
  name: "custom-fields",
  events: fieldEvents,
  routes: (deps) => [fieldsRoutes(deps)],
});
