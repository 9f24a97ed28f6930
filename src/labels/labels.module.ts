import { defineModule } from "../module";
import { labelsRoutes } from "./labels.routes";

export const labelsModule = defineModule({ name: "labels", routes: (deps) => [labelsRoutes(deps)] });
