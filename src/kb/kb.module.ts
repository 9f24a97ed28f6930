import { defineModule } from "../module";
import { kbEvents } from "./kb.events";
import { kbArticlesRoutes, kbCollectionsRoutes } from "./kb.routes";

export const kbModule = defineModule({
  name: "kb",
  events: kbEvents,
  routes: (deps) => [kbCollectionsRoutes(deps), kbArticlesRoutes(deps)],
});
