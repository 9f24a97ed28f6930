import { tagRenamedInViews } from "../labels/labels.public";
import { provide } from "../lib/ports";
import { defineModule } from "../module";
import { viewEvents } from "./views.events";
import { viewsRoutes } from "./views.routes";
import { renameTagInViews } from "./views.service";

export const viewsModule = defineModule({
  name: "views",
  events: viewEvents,
  routes: (deps) => [viewsRoutes(deps)],
  provides: [provide(tagRenamedInViews, renameTagInViews)],
});
