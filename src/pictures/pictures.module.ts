import { defineModule } from "../module";
import { picturesRoutes } from "./pictures.routes";

export const picturesModule = defineModule({ name: "pictures", routes: (deps) => [picturesRoutes(deps)] });
