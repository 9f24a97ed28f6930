import { defineModule } from "../module";
import { helpCenterPages } from "./help-center.pages";
import { helpCenterPreviewRoutes } from "./help-center.preview.routes";
import { helpCenterRoutes } from "./help-center.routes";

export const helpCenterModule = defineModule({
  name: "help-center",
  routes: (deps) => [helpCenterRoutes(deps), helpCenterPreviewRoutes(deps)],
  pages: (deps) => helpCenterPages(deps),
});
