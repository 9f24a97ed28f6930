import { defineModule } from "../module";
import { fieldsRoutes } from "./fields.routes";

export const fieldsModule = defineModule({ name: "custom-fields", routes: (deps) => [fieldsRoutes(deps)] });
