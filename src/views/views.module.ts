import { defineModule } from "../module";
import { viewsRoutes } from "./views.routes";

export const viewsModule = defineModule({ name: "views", routes: (deps) => [viewsRoutes(deps)] });
