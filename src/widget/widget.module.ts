import { defineModule } from "../module";
import { widgetScriptPage } from "./widget.page";
import { widgetRoutes } from "./widget.routes";

export const widgetModule = defineModule({
  name: "widget",
  routes: (deps) => [widgetRoutes(deps)],
  pages: (deps) => widgetScriptPage(deps),
});
