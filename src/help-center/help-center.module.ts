import { defineModule } from "../module";
import { helpCenterPages } from "./help-center.pages";
import { helpCenterRoutes } from "./help-center.routes";

export const helpCenterModule = defineModule({
  name: "help-center",
  routes: (deps) => [helpCenterRoutes(deps)],
  pages: (deps) => helpCenterPages(deps),
});
