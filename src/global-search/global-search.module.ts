import { defineModule } from "../module";
import { searchRoutes } from "./global-search.routes";

export const globalSearchModule = defineModule({ name: "global-search", routes: (deps) => [searchRoutes(deps)] });
