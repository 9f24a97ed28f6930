import { defineModule } from "../module";
import { systemRoutes } from "./system.routes";

export const systemModule = defineModule({
  name: "system",
  routes: (deps) => [systemRoutes(deps)],
});
