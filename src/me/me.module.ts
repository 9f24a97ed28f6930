import { defineModule } from "../module";
import { meRoutes } from "./me.routes";

export const meModule = defineModule({ name: "me", routes: (deps) => [meRoutes(deps)] });
