import { defineModule } from "../module";
import { viewEvents } from "./views.events";
import { viewsRoutes } from "./views.routes";

export const viewsModule = defineModule({ name: "views", events: viewEvents, routes: (deps) => [viewsRoutes(deps)] });
