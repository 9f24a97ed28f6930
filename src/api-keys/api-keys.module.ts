import { defineModule } from "../module";
import { apiKeysRoutes } from "./api-keys.routes";

export const apiKeysModule = defineModule({ name: "api-keys", routes: (deps) => [apiKeysRoutes(deps)] });
